// The work of `agentplat lint`, loaded only when that command runs.
import type { App } from '../app.ts';
import { chalkFor, writeReport } from '../io.ts';
import { packageVersion } from '../../package-version.ts';
import { askedFor, ruleCatalog } from '../../lint/config.ts';
import { formatReport } from '../../output/formatters/index.ts';
import { lintOperation } from '../../pipeline/operations.ts';
import { countProblems } from '../../problems/problem.ts';
import { buildReport } from '../../lint/report.ts';
import { lintSettings, verdict } from '../lint-settings.ts';
import { layerOptionsFrom } from '../options.ts';
import type { LayerFlags } from '../options.ts';

export interface LintOptions extends LayerFlags {
  revision?: string;
  format?: string;
  strict?: boolean;
  quiet?: boolean;
  maxWarnings?: string;
  rule: string[];
  namespace: string;
  namespaceDefaulted?: boolean;
  releaseName: string;
  apiVersions: string[];
  kubeVersion?: string;
  verbose?: boolean;
  /** False with --no-effects. */
  effects?: boolean;
}

export async function runLint(app: App, files: string[], opts: LintOptions): Promise<number> {
  const { io } = app;
  const settings = lintSettings(io.cwd, opts);
  const { revision, format, strict } = settings;
  const catalog = ruleCatalog();
  const { problems, inputs } = await lintOperation({
    revision,
    layers: layerOptionsFrom(opts),
    reader: io,
    releaseName: opts.releaseName,
    namespace: opts.namespace,
    ...(opts.namespaceDefaulted ? { namespaceDefaulted: true } : {}),
    apiVersions: opts.apiVersions,
    ...(opts.kubeVersion !== undefined ? { kubeVersion: opts.kubeVersion } : {}),
    rules: settings.rules,
    ...(settings.ignoreKeys ? { ignoreKeys: settings.ignoreKeys } : {}),
    // --strict shows the notes about untouched defaults too (the tools server's cluster-wide role).
    showDefaultNote: askedFor(settings.rules, opts.verbose === true || strict),
    targets: files,
    effects: opts.effects !== false,
  });
  const counts = countProblems(problems);
  const shown = opts.quiet ? problems.filter((p) => p.severity === 'error') : problems;
  // The summary counts every finding, also those --quiet does not list (the exit code counts them).
  const report = buildReport({ problems: shown, inputs, revision, toolVersion: packageVersion(), rules: catalog, counts });
  const notes: string[] = [];
  const code = verdict(counts, settings, (msg) => notes.push(`agentplat: ${msg}\n`));
  writeReport(io, { report: formatReport(report, { format, chalk: await chalkFor(io, 'stdout'), strict }), after: notes.join('') });
  return code;
}
