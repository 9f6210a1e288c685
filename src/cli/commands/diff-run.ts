// The work of `agentplat diff`, loaded only when that command runs. Each side is made the way
// `render` makes its output (render-run.ts), or read from manifests; then compared object by object.
import type { App } from '../app.ts';
import { chalkFor } from '../io.ts';
import { lintSettings, type LintSettings } from '../lint-settings.ts';
import { layerOptionsFrom, outputFormat, type LayerFlags, parseApiVersionList, parseKubeVersion, REPORT_FORMATS, revisionOption, toLayerOptionsFrom } from '../options.ts';
import { packageVersion } from '../package-version.ts';
import { EXIT_OK, EXIT_PROBLEMS, UsageError } from '../../problems/errors.ts';
import { formatProblems } from '../../lint/formatters/index.ts';
import { secretValues, VALUES_SECRETS } from '../../problems/secrets.ts';
import type { Problem } from '../../problems/problem.ts';
import { checkReleaseNames } from '../../pipeline/request.ts';
import { type ReleaseRequest } from '../../pipeline/render.ts';
import type { Revision } from '../../spec/revisions.ts';
import { loadUserLayers, readUserFile, RESOURCES_INPUT, type LayerOptions, type LoadedLayers } from '../../values/load.ts';
import { loadCrdCheck } from '../../lint/crd-check.ts';
import type { Location, ValuesSource } from '../../values/source.ts';
import { splitPath } from '../../values/merge.ts';
import { deepestLocation } from '../../values/origins.ts';
import { changeLine } from '../../migrate/changes.ts';
import { formatJson, formatText, showChanges, summarize, summaryLine, type JsonDiff, type ShownChange, type SideInfo } from '../../diff/format.ts';
import { readManifestText, type ReadManifests } from '../../diff/manifests.ts';
import { masker } from '../../diff/mask.ts';
import { compareObjects, DuplicateInputError, type Comparison, type ManifestObject } from '../../diff/objects.ts';
import { problemReporter, releaseDocs, renderLoaded, valuesInputs } from './render-run.ts';

export interface DiffFlags extends SidesFlags {
  revision?: string;
  fromRevision?: string;
  toRevision?: string;
  against?: string;
  output: string;
  brief?: boolean;
  context: string;
  rule: string[];
}

const FORMS_HINT = 'compare two values sets (-f OLD --to-values NEW), two revisions (-f V --from-revision A --to-revision B) or a render against manifests (-f V --against FILE|DIR)';

export interface Side {
  info: SideInfo;
  /** The objects, or undefined when the side has problems (already reported). */
  objects?: ManifestObject[];
  /** The layers of a rendered side: their secret values are masked in the output. */
  layers: readonly ValuesSource[];
}

export async function runDiff(flags: DiffFlags, app: App): Promise<void> {
  const settings = lintSettings(app.io.cwd, { revision: flags.revision, rule: flags.rule });
  const output = outputFormat(flags.output, REPORT_FORMATS);
  const context = parseContext(flags.context);
  const from = flags.fromRevision !== undefined ? revisionOption(flags.fromRevision, '--from-revision') : settings.revision;
  const to = flags.toRevision !== undefined ? revisionOption(flags.toRevision, '--to-revision') : settings.revision;
  const hasToLayers = hasNewSideLayers(flags);
  if (flags.against !== undefined) {
    if (flags.fromRevision !== undefined) throw new UsageError('--from-revision: with --against the old side is the manifest, which has no revision', 'pick the revision of the render with -r or --to-revision');
    if (hasToLayers) throw new UsageError('--to-values and --to-set…: with --against the new side is the render of -f and --set', 'give the values of the render with -f and --set');
  } else if (!hasToLayers && from === to) {
    throw new UsageError('nothing to compare: both sides would be the same render', FORMS_HINT);
  }
  const sides = await compareSides(flags, { from, to, revisionFlags: ['--from-revision', '--to-revision'], settings, ...(flags.against !== undefined ? { against: flags.against } : {}) }, app);
  if (!sides) {
    app.exitCode = EXIT_PROBLEMS;
    return;
  }
  const { before, after, migration, comparison, shown } = sides;

  if (migration && migration.length > 0 && output === 'text') {
    app.io.stderr(`the old side's values, migrated from revision ${from} to ${to} (as agentplat migrate does):\n${migration.map((c) => `  ${c.file}: ${changeLine(c)}`).join('\n')}\n`);
  }
  if (output === 'json') {
    app.io.stdout(formatJson(shown, comparison, { tool: { name: 'agentplat', version: packageVersion() }, from: before.info, to: after.info, ...(migration ? { migration } : {}) }));
  } else {
    app.io.stdout(formatText(shown, chalkFor(app.io, 'stdout'), { brief: flags.brief === true, context }));
    app.io.stderr(`${summaryLine(summarize(comparison))}\n`);
  }
  app.exitCode = comparison.changes.length === 0 ? EXIT_OK : EXIT_PROBLEMS;
}

/** Refuses a revision pair `migrate` has no steps for; `flags` name the two revision options in the hint. */
async function checkMigration(from: Revision, to: Revision, flags: [string, string]): Promise<void> {
  const { supportedMigrations } = await import('../../pipeline/migrate.ts');
  if (!supportedMigrations().includes(`${from}→${to}`)) {
    throw new UsageError(`cannot migrate values from revision ${from} to ${to}`, `give the new side's values with --to-values, or compare ${supportedMigrations().map((m) => `${flags[0]} ${m[0]} ${flags[1]} ${m[2]}`).join(', ')}`);
  }
}

function checkStdinOnce(inputs: readonly (string | undefined)[]): void {
  if (inputs.filter((f) => f === '-').length > 1) throw new UsageError('standard input (-) can be read only once', 'save one of the inputs to a file');
}

/** The release both sides render, from the flags diff and plan take alike. */
function releaseRequest(flags: { releaseName: string; namespace: string; apiVersions: string[]; kubeVersion?: string; skipCrds?: boolean }, settings: LintSettings): Omit<ReleaseRequest, 'layers' | 'revision'> {
  checkReleaseNames(flags.releaseName, flags.namespace);
  return {
    releaseName: flags.releaseName,
    namespace: flags.namespace,
    apiVersions: parseApiVersionList(flags.apiVersions),
    ...(flags.kubeVersion !== undefined ? { kubeVersion: parseKubeVersion(flags.kubeVersion) } : {}),
    ...(flags.skipCrds ? { skipCrds: true } : {}),
    rules: settings.rules,
    ignoreKeys: settings.ignoreKeys,
  };
}

/** The flags diff and plan take alike: both sides' values layers and the release they render. */
export interface SidesFlags extends LayerFlags {
  toValues: string[];
  toSet: string[];
  toSetString: string[];
  toSetJson: string[];
  toSetFile: string[];
  toSetLiteral: string[];
  namespace: string;
  releaseName: string;
  apiVersions: string[];
  kubeVersion?: string;
  skipCrds?: boolean;
}

/** True when any `--to-…` layer is given: the new side renders those, not the old side's values. */
export function hasNewSideLayers(flags: SidesFlags): boolean {
  return Object.values(toLayerOptionsFrom(flags)).some((l: string[] | undefined) => (l ?? []).length > 0);
}

export interface SidesOptions {
  from: Revision;
  to: Revision;
  /** The options that name the two revisions, for the hint of a pair migrate cannot do. */
  revisionFlags: [string, string];
  /** The old side is this manifest (file, folder or -) instead of a render of -f/--set. */
  against?: string;
  settings: LintSettings;
}

export interface Sides {
  before: Side & { objects: ManifestObject[] };
  after: Side & { objects: ManifestObject[] };
  /** What migrating the old side's values changed (a revision comparison only). */
  migration?: NonNullable<JsonDiff['migration']>;
  /** Where each migration entry's key was written in its layer (same order as `migration`). */
  migrationAt?: (Location | undefined)[];
  comparison: Comparison;
  /** The changes, masked as diff shows them. */
  shown: ShownChange[];
}

/**
 * Renders (or reads) both sides and compares them, object by object. Problems of either side are
 * reported on stderr under a line naming the side; then the result is undefined.
 */
export async function compareSides(flags: SidesFlags, opts: SidesOptions, app: App): Promise<Sides | undefined> {
  const { from, to, settings, against } = opts;
  const toLayers = hasNewSideLayers(flags) ? toLayerOptionsFrom(flags) : undefined;
  if (against === undefined && !toLayers && from !== to) await checkMigration(from, to, opts.revisionFlags);
  checkStdinOnce([against, ...flags.values, ...flags.toValues]);
  const render = releaseRequest(flags, settings);
  const reader = { cwd: app.io.cwd, readStdin: (maxBytes: number) => app.io.readStdin(maxBytes) };
  const fromLoaded = await loadUserLayers(layerOptionsFrom(flags), reader);
  // Either side (or the migrated file) may set a provider block's config: diff is rare, load the check.
  await loadCrdCheck();
  const before = against !== undefined ? await manifestSide(against, app) : renderSide('old side', fromLoaded, flags.values, from, render, settings, app);
  let migration: Sides['migration'];
  let migrationAt: Sides['migrationAt'];
  let after: Side | undefined;
  if (against !== undefined) after = renderSide('new side', fromLoaded, flags.values, to, render, settings, app);
  else if (toLayers) after = renderSide('new side', await loadUserLayers(toLayers, reader), flags.toValues, to, render, settings, app);
  // Values that fail in their own revision are reported once, not again after migration.
  else if (before.objects) {
    const { migrateLayers } = await import('../../pipeline/migrate.ts');
    const m = migrateLayers(fromLoaded, from, to, settings.rules);
    migration = m.changes;
    // Where each migrated key was written, in the user's own layer.
    const written = new Map(fromLoaded.sources.map((s) => [s.name, s]));
    migrationAt = m.changes.map((c) => {
      const source = written.get(c.file);
      return source ? deepestLocation(source, splitPath(c.path)).location : undefined;
    });
    after = renderSide('new side', m.loaded, flags.values, to, render, settings, app);
  }
  if (!before.objects || !after?.objects) return undefined;

  let comparison;
  try {
    comparison = compareObjects(before.objects, after.objects, ['the old side', 'the new side']);
  } catch (err) {
    if (err instanceof DuplicateInputError) throw new UsageError(err.message, 'a manifest holds each object once; kubectl would apply only the last of them');
    throw err;
  }
  const secrets = new Set<string>();
  for (const l of [...before.layers, ...after.layers]) secretValues(l.data, VALUES_SECRETS, secrets);
  const { crdValidationData } = await import('../../crds/validation-data.ts');
  const data = crdValidationData();
  const shown = showChanges(comparison, masker(secrets, (kind) => data[kind]?.secrets));
  return {
    before: { ...before, objects: before.objects },
    after: { ...after, objects: after.objects },
    ...(migration ? { migration } : {}),
    ...(migrationAt ? { migrationAt } : {}),
    comparison,
    shown,
  };
}

function parseContext(raw: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--context: expected a whole number of lines, found "${raw}"`, 'for example -U 5');
  return Number(raw.trim());
}

/** One rendered side; its problems are reported on stderr under a line naming the side. */
function renderSide(name: string, loaded: LoadedLayers, files: readonly string[], revision: Revision, req: Omit<ReleaseRequest, 'layers' | 'revision'>, settings: LintSettings, app: App): Side {
  const release = renderLoaded(loaded, { ...req, revision });
  const report = problemReporter(app, revision, valuesInputs(files, loaded, revision));
  const titled = (problems: readonly Problem[]) => {
    if (!problems.some((p) => p.severity !== 'info')) return;
    app.io.stderr(`${name} (revision ${revision}):\n`);
    report(problems);
  };
  const docs = releaseDocs(release, { ...settings, revision }, app, titled);
  const warnings = release.problems.filter((p) => p.severity === 'warning');
  if (docs && warnings.length > 0) titled(warnings);
  const info: SideInfo = { kind: 'render', revision, values: loaded.sources.map((s) => s.name) };
  return { info, layers: loaded.sources, ...(docs ? { objects: docs.map((d) => ({ source: d.source, object: d.object })) } : {}) };
}

/** The old side from a manifest file, standard input, or a folder of manifests. */
async function manifestSide(path: string, app: App): Promise<Side> {
  const info: SideInfo = { kind: 'manifest', path };
  const { walkResourceDir } = await import('../../crds/glob.ts');
  const files = path === '-' ? ['-'] : (walkResourceDir(path, app.io.cwd) ?? [path]);
  const read: ReadManifests = { objects: [], problems: [] };
  for (const f of files) {
    const { name, text } = await readUserFile(f, app.io, RESOURCES_INPUT);
    readManifestText(text, name, read);
  }
  if (read.problems.length > 0) {
    app.io.stderr(`old side (${path}):\n`);
    app.io.stderr(formatProblems(read.problems, { format: 'text', chalk: chalkFor(app.io, 'stderr'), inputs: files.map((f) => (f === '-' ? '<stdin>' : f)) }));
    return { info, layers: [] };
  }
  return { info, layers: [], objects: read.objects };
}
