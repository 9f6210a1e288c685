// What the run files of `diff` and `plan` share as an adapter: the flags both take, mapped to the
// request of the compare operation (src/pipeline/compare.ts), and how each side's problems are
// written on stderr, under a line naming the side, as soon as the operation has made it.
import type { ValuesChangeEffect } from '../pipeline/no-effect.ts';
import { type App } from './app.ts';
import { chalkFor } from './io.ts';
import { type LintSettings, verdict } from './lint-settings.ts';
import { type LayerFlags, layerOptionsFrom, toLayerOptionsFrom } from './options.ts';
import { problemReporter } from './problem-report.ts';
import { formatProblems } from '../output/formatters/index.ts';
import { EXIT_PROBLEMS } from '../problems/errors.ts';
import { countProblems, type Problem } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';
import type { CompareRequest, Side } from '../pipeline/compare.ts';

/** The flags diff and plan take alike: both sides' values layers and the release they render. */
export interface SidesFlags extends LayerFlags {
  toValues: string[];
  toSet: string[];
  toSetString: string[];
  toSetJson: string[];
  toSetFile: string[];
  toSetLiteral: string[];
  namespace: string;
  namespaceDefaulted?: boolean;
  releaseName: string;
  apiVersions: string[];
  kubeVersion?: string;
  skipCrds?: boolean;
}

/** True when any `--to-…` layer is given: the new side renders those, not the old side's values. */
export function hasNewSideLayers(flags: SidesFlags): boolean {
  return Object.values(toLayerOptionsFrom(flags)).some((l: string[] | undefined) => (l ?? []).length > 0);
}

/**
 * The compare request of diff's and plan's flags. A rendered side is compared when render would
 * print it (no error, and the config file's strict and maxWarnings pass its warnings); each side's
 * problems are written on stderr as the operation makes it.
 */
export function compareRequest(flags: SidesFlags, settings: LintSettings, app: App, sides: { from: Revision; to: Revision; revisionFlags: [string, string]; hasToLayers: boolean }): CompareRequest {
  return {
    from: sides.from,
    to: sides.to,
    revisionFlags: sides.revisionFlags,
    layers: layerOptionsFrom(flags),
    ...(sides.hasToLayers ? { toLayers: toLayerOptionsFrom(flags) } : {}),
    reader: app.io,
    releaseName: flags.releaseName,
    namespace: flags.namespace,
    ...(flags.namespaceDefaulted ? { namespaceDefaulted: true } : {}),
    apiVersions: flags.apiVersions,
    ...(flags.kubeVersion !== undefined ? { kubeVersion: flags.kubeVersion } : {}),
    ...(flags.skipCrds ? { skipCrds: true } : {}),
    rules: settings.rules,
    ignoreKeys: settings.ignoreKeys,
    accept: (problems) => verdict(countProblems(problems), settings, () => {}) === 0,
    onSide: (side) => reportSide(side, settings, app),
  };
}

/**
 * A side's problems on stderr: a rendered side's errors and warnings (all of them when it is not
 * compared, then with the note of --strict or maxWarnings and exit code 1), a manifest's reading
 * problems.
 */
async function reportSide(side: Side, settings: LintSettings, app: App): Promise<void> {
  if (side.info.kind === 'manifest') {
    if (side.problems.length === 0) return;
    app.io.stderr(`old side (${side.info.path}):\n`);
    app.io.stderr(formatProblems(side.problems, { format: 'text', chalk: await chalkFor(app.io, 'stderr'), inputs: side.inputs }));
    return;
  }
  const { revision } = side.info;
  const report = await problemReporter(app, revision as Revision, side.inputs);
  const titled = (problems: readonly Problem[]) => {
    if (!problems.some((p) => p.severity !== 'info')) return;
    app.io.stderr(`${side.name} (revision ${revision}):\n`);
    report(problems);
  };
  if (side.objects) {
    const warnings = side.problems.filter((p) => p.severity === 'warning');
    if (warnings.length > 0) titled(warnings);
    return;
  }
  const notes: string[] = [];
  verdict(countProblems(side.problems), settings, (msg) => notes.push(`agentplat: ${msg}\n`));
  titled(side.problems);
  app.io.stderr(notes.join(''));
  app.exitCode = EXIT_PROBLEMS;
}

/** The line that names the keys of a values change that change nothing rendered (the first few); '' when none does. */
export function inertValuesLine(effect: ValuesChangeEffect | undefined): string {
  if (!effect || effect.inert.length === 0) return '';
  const keys = effect.inert;
  const named = keys.slice(0, 5).map((k) => `\`${k}\``).join(', ');
  const more = keys.length > 5 ? ` and ${keys.length - 5} more` : '';
  const why = '(agentplat lint names why: values/no-effect)';
  if (effect.renderedAlike) {
    return `the values of the two sides differ at ${named}${more}, which change${keys.length === 1 ? 's' : ''} nothing rendered ${why}\n`;
  }
  return `of the keys at which the values of the two sides differ, ${named}${more} change${keys.length === 1 ? 's' : ''} nothing rendered: put back to the old side's value, the new side renders the same ${why}\n`;
}
