// The work of `agentplat lint`, loaded only when that command runs.
import type { App } from '../app.ts';
import { chalkFor, writeReport } from '../io.ts';
import { packageVersion } from '../package-version.ts';
import { UsageError } from '../../problems/errors.ts';
import { applyRuleLevels, askedFor, ruleCatalog } from '../../lint/config.ts';
import { formatReport } from '../../lint/formatters/index.ts';
import { renderRelease, type ReleaseRequest } from '../../pipeline/render.ts';
import { checkReleaseNames } from '../../pipeline/request.ts';
import { countProblems, type Problem } from '../../problems/problem.ts';
import { buildReport } from '../../lint/report.ts';
import { expandTargets, lintTargets } from '../../lint/targets.ts';
import { prepareCrdCheck } from '../../lint/crd-check.ts';
import { loadUserLayers, readUserFile, type LayerOptions } from '../../values/load.ts';
import { lintSettings, verdict } from '../lint-settings.ts';
import { layerOptionsFrom, parseApiVersionList, parseKubeVersion } from '../options.ts';
import type { ValuesSource } from '../../values/source.ts';
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
  const kubeVersion = opts.kubeVersion !== undefined ? parseKubeVersion(opts.kubeVersion) : undefined;
  const apiVersions = parseApiVersionList(opts.apiVersions);
  checkReleaseNames(opts.releaseName, opts.namespace);
  const catalog = ruleCatalog();
  // --strict shows the notes about untouched defaults too (the tools server's cluster-wide role).
  const showDefaultNote = askedFor(settings.rules, opts.verbose === true || strict);
  // Each set of layers is checked as render checks it: the values, then the rendered objects
  // (names, duplicates, API gates), nothing printed. One path, so the two decide alike.
  const release: Omit<ReleaseRequest, 'layers'> = {
    revision,
    releaseName: opts.releaseName,
    namespace: opts.namespace,
    ...(opts.namespaceDefaulted ? { namespaceDefaulted: true } : {}),
    apiVersions,
    ...(kubeVersion ? { kubeVersion } : {}),
    rules: settings.rules,
    ...(settings.ignoreKeys ? { ignoreKeys: settings.ignoreKeys } : {}),
    showDefaultNote,
    effects: opts.effects !== false,
  };
  const check = (layers: readonly ValuesSource[]): Problem[] => renderRelease({ ...release, layers }).problems;

  const layerOpts: LayerOptions = layerOptionsFrom(opts);
  let problems: Problem[];
  let inputs: string[];
  if (files.length === 0) {
    const loaded = await loadUserLayers(layerOpts, io);
    await prepareCrdCheck(loaded.sources);
    problems = [...loaded.problems, ...check(loaded.sources)];
    inputs = opts.values.map((f) => (f === '-' ? '<stdin>' : f));
    if (inputs.length === 0) inputs = [loaded.sources.length > 0 ? 'command-line values' : `defaults of revision ${revision}`];
  } else {
    const targets = expandTargets(files, io.cwd);
    if (targets.includes('-') && opts.values.includes('-')) throw new UsageError('standard input (-) can be read only once');
    const base = await loadUserLayers({ values: opts.values }, io);
    const top = await loadUserLayers({ ...layerOpts, values: [] }, io);
    const texts = [];
    for (const t of targets) texts.push(await readUserFile(t, io));
    const found = await lintTargets({ base: base.sources, top: top.sources, targets: texts, check });
    problems = [...base.problems, ...top.problems, ...found];
    inputs = texts.map((t) => t.name);
  }

  problems = applyRuleLevels(problems, settings.rules, settings.ignoreKeys);
  const counts = countProblems(problems);
  const shown = opts.quiet ? problems.filter((p) => p.severity === 'error') : problems;
  // The summary counts every finding, also those --quiet does not list (the exit code counts them).
  const report = buildReport({ problems: shown, inputs, revision, toolVersion: packageVersion(), rules: catalog, counts });
  const notes: string[] = [];
  const code = verdict(counts, settings, (msg) => notes.push(`agentplat: ${msg}\n`));
  writeReport(io, { report: formatReport(report, { format, chalk: await chalkFor(io, 'stdout'), strict }), after: notes.join('') });
  return code;
}
