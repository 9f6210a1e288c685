// What `diff` and `plan` share: both sides of a comparison, each rendered as `render` renders its
// output (loaded layers through the release's lint and render, problems reported on stderr under a
// line naming the side) or read from manifests, then compared object by object. A module of the
// command-line adapter, not a command: the run files of diff and plan both call compareSides.
import { type App } from './app.ts';
import { chalkFor } from './io.ts';
import { type LintSettings, verdict } from './lint-settings.ts';
import { type LayerFlags, layerOptionsFrom, type NamespaceFlags, parseApiVersionList, parseKubeVersion, toLayerOptionsFrom } from './options.ts';
import { EXIT_PROBLEMS, UsageError } from '../problems/errors.ts';
import { formatProblems } from '../output/formatters/index.ts';
import { secretValues, VALUES_SECRETS } from '../problems/secrets.ts';
import { countProblems, type Problem } from '../problems/problem.ts';
import { checkReleaseNames } from '../pipeline/request.ts';
import { type ReleaseRequest, type ReleaseResult } from '../pipeline/render.ts';
import { type Revision } from '../chart/revisions.ts';
import { type LoadedLayers, loadUserLayers, readUserFile, RESOURCES_INPUT } from '../values/load.ts';
import { type Location, type ValuesSource } from '../values/source.ts';
import { changeLocations } from '../migrate/origin.ts';
import type { JsonDiff } from '../output/diff/format.ts';
import { showChanges, type ShownChange, type SideInfo } from '../diff/shown.ts';
import { type ReadManifests, readManifestText } from '../diff/manifests.ts';
import { masker, type Masker } from '../diff/mask.ts';
import { compareObjects, type Comparison, DuplicateInputError, type ManifestObject } from '../diff/objects.ts';
import { problemReporter } from './problem-report.ts';
import { type RenderedDoc } from '../model/objects.ts';
import { inputNames, renderLoaded } from '../pipeline/operations.ts';

export interface Side {
  info: SideInfo;
  /** The objects, or undefined when the side has problems (already reported). */
  objects?: ManifestObject[];
  /** The layers of a rendered side: their secret values are masked in the output. */
  layers: readonly ValuesSource[];
}

/** Refuses a revision pair `migrate` has no steps for; `flags` name the two revision options in the hint. */
async function checkMigration(from: Revision, to: Revision, flags: [string, string]): Promise<void> {
  const { supportedMigrations } = await import('../pipeline/migrate.ts');
  if (!supportedMigrations().includes(`${from}→${to}`)) {
    throw new UsageError(`cannot migrate values from revision ${from} to ${to}`, `give the new side's values with --to-values, or compare ${supportedMigrations().map((m) => `${flags[0]} ${m[0]} ${flags[1]} ${m[2]}`).join(', ')}`);
  }
}

function checkStdinOnce(inputs: readonly (string | undefined)[]): void {
  if (inputs.filter((f) => f === '-').length > 1) throw new UsageError('standard input (-) can be read only once', 'save one of the inputs to a file');
}

/** The release both sides render, from the flags diff and plan take alike. */
function releaseRequest(flags: NamespaceFlags & { releaseName: string; apiVersions: string[]; kubeVersion?: string; skipCrds?: boolean }, settings: LintSettings): Omit<ReleaseRequest, 'layers' | 'revision'> {
  checkReleaseNames(flags.releaseName, flags.namespace);
  return {
    releaseName: flags.releaseName,
    namespace: flags.namespace,
    ...(flags.namespaceDefaulted ? { namespaceDefaulted: true } : {}),
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

export interface SidesOptions {
  from: Revision;
  to: Revision;
  /** The options that name the two revisions, for the hint of a pair migrate cannot do. */
  revisionFlags: [string, string];
  /** The old side is this manifest (file, folder or -) instead of a render of -f/--set. */
  against?: string;
  settings: LintSettings;
  /** `diff --cluster` with one render: the new side is the old side's render itself. */
  single?: boolean;
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
  const before = against !== undefined ? await manifestSide(against, app) : await renderSide(opts.single ? 'the render' : 'old side', fromLoaded, flags.values, from, render, settings, app);
  let migration: Sides['migration'];
  let migrationAt: Sides['migrationAt'];
  let after: Side | undefined;
  if (against !== undefined) after = await renderSide('new side', fromLoaded, flags.values, to, render, settings, app);
  else if (opts.single) after = before;
  else if (toLayers) after = await renderSide('new side', await loadUserLayers(toLayers, reader), flags.toValues, to, render, settings, app);
  // Values that fail in their own revision are reported once, not again after migration.
  else if (before.objects) {
    const { migrateLayers } = await import('../pipeline/migrate.ts');
    const m = await migrateLayers(fromLoaded, from, to, settings.rules);
    migration = m.changes;
    // Where each migrated key was written, in the user's own layer.
    migrationAt = changeLocations(m.changes, fromLoaded.sources);
    after = await renderSide('new side', m.loaded, flags.values, to, render, settings, app);
  }
  if (!before.objects || !after?.objects) return undefined;

  let comparison;
  try {
    comparison = compareObjects(before.objects, after.objects, ['the old side', 'the new side']);
  } catch (err) {
    if (err instanceof DuplicateInputError) throw new UsageError(err.message, 'a manifest holds each object once; kubectl would apply only the last of them');
    throw err;
  }
  const shown = showChanges(comparison, (await maskFor([before, after])).mask);
  return {
    before: { ...before, objects: before.objects },
    after: { ...after, objects: after.objects },
    ...(migration ? { migration } : {}),
    ...(migrationAt ? { migrationAt } : {}),
    comparison,
    shown,
  };
}

/**
 * When two values sets of one revision render the same objects but differ: the keys at which they
 * differ (a change of the values that changes nothing rendered); else undefined.
 */
export async function inertValuesChange(sides: Sides, from: Revision, to: Revision, against: string | undefined): Promise<string[] | undefined> {
  if (against !== undefined || from !== to || sides.migration || sides.comparison.changes.length > 0 || sides.before === sides.after) return undefined;
  const { valuesDiffering } = await import('../pipeline/no-effect.ts');
  const keys = valuesDiffering(to, sides.before.layers, sides.after.layers);
  return keys.length > 0 ? keys : undefined;
}

/** The line that says a change of the values changed nothing rendered, naming the keys (the first few). */
export function inertValuesLine(keys: readonly string[]): string {
  const named = keys.slice(0, 5).map((k) => `\`${k}\``).join(', ');
  const more = keys.length > 5 ? ` and ${keys.length - 5} more` : '';
  return `the values of the two sides differ at ${named}${more}, which change${keys.length === 1 ? 's' : ''} nothing rendered (agentplat lint names why: values/no-effect)`;
}

/** The secret values of the layers of both sides, and the masker of diff's output. */
export async function maskFor(sides: readonly Side[]): Promise<{ secrets: Set<string>; mask: Masker }> {
  const secrets = new Set<string>();
  for (const side of sides) for (const l of side.layers) secretValues(l.data, VALUES_SECRETS, secrets);
  const { crdValidationData } = await import('../crds/validation-data.ts');
  const data = crdValidationData();
  return { secrets, mask: masker(secrets, (kind) => data[kind]?.secrets) };
}

/** One rendered side; its problems are reported on stderr under a line naming the side. */
async function renderSide(name: string, loaded: LoadedLayers, files: readonly string[], revision: Revision, req: Omit<ReleaseRequest, 'layers' | 'revision'>, settings: LintSettings, app: App): Promise<Side> {
  const release = await renderLoaded(loaded, { ...req, revision });
  const report = await problemReporter(app, revision, inputNames({ values: files }, loaded, revision));
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
  const { walkResourceDir } = await import('../kube-check/glob.ts');
  const files = path === '-' ? ['-'] : (walkResourceDir(path, app.io.cwd) ?? [path]);
  const read: ReadManifests = { objects: [], problems: [] };
  for (const f of files) {
    const { name, text } = await readUserFile(f, app.io, RESOURCES_INPUT);
    readManifestText(text, name, read);
  }
  if (read.problems.length > 0) {
    app.io.stderr(`old side (${path}):\n`);
    app.io.stderr(formatProblems(read.problems, { format: 'text', chalk: await chalkFor(app.io, 'stderr'), inputs: files.map((f) => (f === '-' ? '<stdin>' : f)) }));
    return { info, layers: [] };
  }
  return { info, layers: [], objects: read.objects };
}

/**
 * The documents of a release when render would print them: none when a problem is an error, or
 * when --strict or maxWarnings refuse the warnings (then the problems are reported and the exit
 * code is 1).
 */
export function releaseDocs(release: ReleaseResult, settings: LintSettings, app: App, report: (problems: readonly Problem[]) => void): RenderedDoc[] | undefined {
  const notes: string[] = [];
  if (release.docs && verdict(countProblems(release.problems), settings, (msg) => notes.push(`agentplat: ${msg}\n`)) === 0) return release.docs;
  report(release.problems);
  app.io.stderr(notes.join(''));
  app.exitCode = EXIT_PROBLEMS;
  return undefined;
}
