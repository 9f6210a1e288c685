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
import type { Revision } from '../../chart/revisions.ts';

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
  /** The HelmReleases and Applications among the positional files (gitops-input.ts), each linted with its own settings. */
  gitopsJobs?: import('../gitops-input.ts').GitopsLintJob[];
}

export async function runLint(app: App, files: string[], opts: LintOptions): Promise<number> {
  const { io } = app;
  const settings = lintSettings(io.cwd, opts);
  const { revision, format, strict } = settings;
  const catalog = ruleCatalog();
  const request = {
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
  };
  const jobs = opts.gitopsJobs ?? [];
  const plain = jobs.length === 0 || files.length > 0 ? await lintOperation(request) : { problems: [], inputs: [] };
  const problems = [...plain.problems];
  const inputs = [...plain.inputs];
  // The revision each file was linted at (null: at two), for a run over objects of both chart versions.
  const revisionOf = new Map<string, Revision | null>();
  const mark = (file: string | undefined, r: Revision) => {
    if (file === undefined) return;
    const was = revisionOf.get(file);
    revisionOf.set(file, was === undefined || was === r ? r : null);
  };
  if (revision) for (const f of plain.inputs) mark(f, revision);
  // Each HelmRelease or Application over the shared -f/--set layers, with the revision and names it gives.
  for (const { release } of jobs) {
    const layers = layerOptionsFrom(opts);
    const one = await lintOperation({
      ...request,
      revision: release.revision,
      layers: { ...layers, values: [...(layers.values ?? []), ...release.layers.map((source) => ({ name: source.name, source }))] },
      releaseName: release.releaseName,
      namespace: release.namespace,
      namespaceDefaulted: false,
      apiVersions: [...opts.apiVersions, ...release.apiVersions],
      ...(release.kubeVersion ? { kubeVersion: release.kubeVersion } : {}),
      targets: [],
    });
    problems.push(...one.problems);
    if (!inputs.includes(release.file)) inputs.push(release.file);
    mark(release.file, release.revision);
    for (const p of one.problems) mark(p.file, release.revision);
  }
  const linted = new Set([...revisionOf.values()]);
  const mixed = jobs.length > 0 && (linted.size > 1 || linted.has(null));
  const revisions = new Map([...revisionOf].filter((e): e is [string, Revision] => e[1] !== null));
  // One revision for the whole run: the report's; else each file's entry carries its own.
  const reportRevision = jobs.length > 0 ? (mixed ? undefined : jobs[0]!.release.revision) : revision;
  const counts = countProblems(problems);
  const shown = opts.quiet ? problems.filter((p) => p.severity === 'error') : problems;
  // The summary counts every finding, also those --quiet does not list (the exit code counts them).
  const report = buildReport({ problems: shown, inputs, ...(reportRevision ? { revision: reportRevision } : {}), ...(mixed ? { revisions } : {}), toolVersion: packageVersion(), rules: catalog, counts });
  const notes: string[] = [];
  const code = verdict(counts, settings, (msg) => notes.push(`agentplat: ${msg}\n`));
  writeReport(io, { report: formatReport(report, { format, chalk: await chalkFor(io, 'stdout'), strict }), after: notes.join('') });
  return code;
}
