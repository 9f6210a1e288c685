// The work of `agentplat diff`, loaded only when that command runs. Each side is made the way
// `render` makes its output (render-run.ts), or read from manifests; then compared object by object.
import type { App } from '../app.ts';
import { chalkFor, writeReport } from '../io.ts';
import { lintSettings, type LintSettings } from '../lint-settings.ts';
import { eitherSpelling, layerOptionsFrom, outputFormat, type LayerFlags, type NamespaceFlags, parseApiVersionList, parseKubeVersion, REPORT_FORMATS, revisionOption, toLayerOptionsFrom } from '../options.ts';
import { packageVersion } from '../../package-version.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../../problems/errors.ts';
import { formatProblems } from '../../lint/formatters/index.ts';
import { redact, secretValues, VALUES_SECRETS } from '../../problems/secrets.ts';
import type { Problem } from '../../problems/problem.ts';
import { checkReleaseNames } from '../../pipeline/request.ts';
import { type ReleaseRequest } from '../../pipeline/render.ts';
import type { Revision } from '../../spec/revisions.ts';
import { loadUserLayers, readUserFile, RESOURCES_INPUT, type LayerOptions, type LoadedLayers } from '../../values/load.ts';
import type { Location, ValuesSource } from '../../values/source.ts';
import { locatedChangeLine } from '../../migrate/changes.ts';
import { changeLocations } from '../../migrate/origin.ts';
import { formatJson, formatText, showChanges, summarize, summaryLine, type JsonDiff, type ShownChange, type SideInfo } from '../../diff/format.ts';
import { readManifestText, type ReadManifests } from '../../diff/manifests.ts';
import { masker, type Masker } from '../../diff/mask.ts';
import { parseIgnoreRule, preflight, type IgnoreRule } from '../../diff/live.ts';
import { formatPreflightJson, formatPreflightText, preflightClean, pruneNote, preflightSummaryLine, summarizePreflight, type ClusterInfo } from '../../diff/live-format.ts';
import { applySetId, parseApplySetFlag } from '../../render/applyset.ts';
import { applySetPreflight, resolveParent, type ApplySetPreflight, type ParentFlag } from '../../diff/applyset-parent.ts';
import { nameProblem } from '../../k8s-meta.ts';
import { ClusterError, type ClusterClient, type KubeObject } from '../../cluster/client.ts';
import { compareObjects, DuplicateInputError, type Comparison, type ManifestObject } from '../../diff/objects.ts';
import { releaseDocs, renderLoaded, valuesInputs } from './render-run.ts';
import { problemReporter } from '../problem-report.ts';

export interface DiffFlags extends SidesFlags {
  revision?: string;
  fromRevision?: string;
  toRevision?: string;
  /** plan's spellings of --from-revision and --to-revision. */
  from?: string;
  to?: string;
  against?: string;
  output: string;
  brief?: boolean;
  context: string;
  rule: string[];
  cluster?: boolean;
  fieldManager: string;
  applyset?: string;
  ignore: string[];
  kubeconfig?: string;
  kubeContext?: string;
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
  const fromFlag = eitherSpelling('revisions', [flags.fromRevision, '--from-revision'], [flags.from, '--from']);
  const toFlag = eitherSpelling('revisions', [flags.toRevision, '--to-revision'], [flags.to, '--to']);
  const from = fromFlag.value !== undefined ? revisionOption(fromFlag.value, fromFlag.flag) : settings.revision;
  const to = toFlag.value !== undefined ? revisionOption(toFlag.value, toFlag.flag) : settings.revision;
  const hasToLayers = hasNewSideLayers(flags);
  if (!flags.cluster) {
    const only = [flags.kubeconfig !== undefined && '--kubeconfig', flags.kubeContext !== undefined && '--kube-context', flags.applyset !== undefined && '--applyset', flags.ignore.length > 0 && '--ignore', flags.fieldManager !== 'agentplat' && '--field-manager'].filter((f) => f !== false);
    if (only.length > 0) throw new UsageError(`${only.join(', ')}: only with --cluster`, 'add --cluster to compare the render with the live cluster');
  }
  const ignore = (flags.ignore ?? []).map((text) => {
    const rule = parseIgnoreRule(text);
    if (typeof rule === 'string') throw new UsageError(`--ignore ${text}: ${rule}`, 'e.g. --ignore Deployment/agentplat-controller:spec.replicas or --ignore \'Deployment.apps/*:spec.replicas\'');
    return rule;
  });
  if (flags.cluster && flags.against !== undefined) throw new UsageError('--against and --cluster: the old side is either a manifest or the live cluster', 'drop --against to compare the render with the cluster');
  if (flags.cluster && (flags.fieldManager === '' || /[\s]/.test(flags.fieldManager))) throw new UsageError(`--field-manager "${flags.fieldManager}": a field manager is a name without spaces`, 'the name you apply with, e.g. --field-manager agentplat');
  if (flags.against !== undefined) {
    if (fromFlag.value !== undefined) throw new UsageError(`${fromFlag.flag}: with --against the old side is the manifest, which has no revision`, 'pick the revision of the render with -r or --to-revision');
    if (hasToLayers) throw new UsageError('--to-values and --to-set…: with --against the new side is the render of -f and --set', 'give the values of the render with -f and --set');
  } else if (!hasToLayers && from === to && !flags.cluster) {
    throw new UsageError('nothing to compare: both sides would be the same render', FORMS_HINT);
  }
  /** --cluster with one render: it is both what was applied last and what is applied now. */
  const single = flags.cluster === true && !hasToLayers && from === to;
  const sides = await compareSides(flags, { from, to, revisionFlags: [fromFlag.flag, toFlag.flag], settings, single, ...(flags.against !== undefined ? { against: flags.against } : {}) }, app);
  if (!sides) {
    app.exitCode = EXIT_PROBLEMS;
    return;
  }
  const { before, after, migration, comparison, shown } = sides;
  if (flags.cluster) {
    await runPreflight(flags, app, { before, after, single, migration, migrationAt: sides.migrationAt, from, to, ignore, context, output });
    return;
  }
  // The whole output is made before any of it is written: the migration report and the summary
  // frame the diff on a terminal, and a diff that cannot be written gets no summary.
  const inert = await inertValuesChange(sides, from, to, flags.against);
  if (output === 'json') {
    writeReport(app.io, { report: formatJson(shown, comparison, { tool: { name: 'agentplat', version: packageVersion() }, from: before.info, to: after.info, ...(migration ? { migration } : {}), ...(inert ? { valuesWithoutEffect: inert } : {}) }) });
  } else {
    writeReport(app.io, {
      before: migrationReport(migration, sides.migrationAt, from, to),
      report: formatText(shown, await chalkFor(app.io, 'stdout'), { brief: flags.brief === true, context }),
      after: `${summaryLine(summarize(comparison))}\n${inert ? `${inertValuesLine(inert)}\n` : ''}`,
    });
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
    const { migrateLayers } = await import('../../pipeline/migrate.ts');
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
  const { valuesDiffering } = await import('../../pipeline/no-effect.ts');
  const keys = valuesDiffering(to, sides.before.layers, sides.after.layers);
  return keys.length > 0 ? keys : undefined;
}

/** The line that says a change of the values changed nothing rendered, naming the keys (the first few). */
export function inertValuesLine(keys: readonly string[]): string {
  const named = keys.slice(0, 5).map((k) => `\`${k}\``).join(', ');
  const more = keys.length > 5 ? ` and ${keys.length - 5} more` : '';
  return `the values of the two sides differ at ${named}${more}, which change${keys.length === 1 ? 's' : ''} nothing rendered (agentplat lint names why: values/no-effect)`;
}

/** A revision diff's migration report, written on stderr before the diff (text output only); '' without one. */
function migrationReport(migration: JsonDiff['migration'], at: Sides['migrationAt'], from: Revision, to: Revision): string {
  if (!migration || migration.length === 0) return '';
  return `the old side's values, migrated from revision ${from} to ${to} (as agentplat migrate does):\n${migration.map((c, i) => `  ${locatedChangeLine(c, at?.[i])}`).join('\n')}\n`;
}

/** The secret values of the layers of both sides, and the masker of diff's output. */
async function maskFor(sides: readonly Side[]): Promise<{ secrets: Set<string>; mask: Masker }> {
  const secrets = new Set<string>();
  for (const side of sides) for (const l of side.layers) secretValues(l.data, VALUES_SECRETS, secrets);
  const { crdValidationData } = await import('../../crds/validation-data.ts');
  const data = crdValidationData();
  return { secrets, mask: masker(secrets, (kind) => data[kind]?.secrets) };
}

/**
 * `diff --cluster`: the new side's render against the live cluster (src/diff/live.ts); the old
 * side, when it is another render, is what was applied last (drift is measured against it).
 */
async function runPreflight(
  flags: DiffFlags,
  app: App,
  run: { before: Side; after: Side; single: boolean; migration: JsonDiff['migration']; migrationAt: Sides['migrationAt']; from: Revision; to: Revision; ignore: IgnoreRule[]; context: number; output: string },
): Promise<void> {
  const { before, after } = run;
  // Checked before any request: a bad --applyset never reaches the cluster.
  const parent = flags.applyset !== undefined ? applySetParent(flags.applyset, flags.namespace) : undefined;
  const desired: ManifestObject[] = after.objects!;
  try {
    compareObjects(run.single ? [] : before.objects!, desired, ['the old side', 'the new side']);
  } catch (err) {
    if (err instanceof DuplicateInputError) throw new UsageError(err.message, 'a manifest holds each object once; kubectl would apply only the last of them');
    throw err;
  }
  const { connect } = await import('../../cluster/connect.ts');
  const client = await connect({ kubeconfig: flags.kubeconfig, context: flags.kubeContext, contextFlag: '--kube-context', namespace: flags.namespace }, { cwd: app.io.cwd, env: app.io.env });
  await checkReleaseNamespace(client, flags.namespace, desired);
  const parentRef = parent === undefined ? undefined : await resolveParent(parent, flags.applyset!, client);
  const applySet = parentRef === undefined ? undefined : applySetId(parentRef);
  const { secrets, mask } = await maskFor(run.single ? [after] : [before, after]);
  const checked = await preflight(client, {
    desired,
    ...(run.single ? {} : { lastApplied: before.objects! }),
    release: flags.releaseName,
    fieldManager: flags.fieldManager,
    ...(applySet !== undefined ? { applySetId: applySet } : {}),
    ignore: run.ignore,
    mask,
    redact: (text) => redact(text, secrets),
  });
  // kubectl's checks and update of the parent, and the members it would really prune.
  const result: ApplySetPreflight = parentRef === undefined ? checked : await applySetPreflight(client, parentRef, applySet!, desired.map((d) => d.object as KubeObject), checked);
  const shown = showChanges(result.comparison, mask);
  const info: ClusterInfo = { context: client.context, server: client.server, fieldManager: flags.fieldManager, ...(applySet !== undefined ? { applySet } : {}) };
  if (run.output === 'json') {
    writeReport(app.io, { report: formatPreflightJson(shown, result, { tool: { name: 'agentplat', version: packageVersion() }, cluster: info, ...(run.single ? {} : { from: before.info }), to: after.info, ...(run.migration ? { migration: run.migration } : {}) }) });
  } else {
    const prune = pruneNote(result, info);
    writeReport(app.io, {
      before: migrationReport(run.migration, run.migrationAt, run.from, run.to),
      report: formatPreflightText(shown, result, info, await chalkFor(app.io, 'stdout'), { brief: flags.brief === true, context: run.context, revision: run.to }),
      after: [...result.notes, ...(prune ? [prune] : [])].map((n) => `note: ${n}\n`).join('') + `${preflightSummaryLine(summarizePreflight(result), info, result.applySet)}\n`,
    });
  }
  // Objects the user may not check: the run could not do its work for them (README, exit codes).
  app.exitCode = result.notAllowed.length > 0 ? EXIT_USAGE : preflightClean(result) ? EXIT_OK : EXIT_PROBLEMS;
}

/**
 * The release's namespace (-n) must exist, unless the render creates it: in a namespace that does
 * not exist every dry run is refused, and the release's objects where it does live would all be
 * listed as not in the render, yours to delete. A user who may not get namespaces goes on.
 */
async function checkReleaseNamespace(client: ClusterClient, namespace: string, desired: readonly ManifestObject[]): Promise<void> {
  if (desired.some(({ object: o }) => o.kind === 'Namespace' && o.apiVersion === 'v1' && (o.metadata as { name?: string } | undefined)?.name === namespace)) return;
  if ((await client.namespaceExists(namespace)) !== false) return;
  throw new ClusterError(`namespace ${namespace} not found (context ${client.context})`, `check the spelling of -n; for a first install create it first (kubectl create namespace ${namespace})`, 404);
}

/**
 * `--applyset`: a Secret or ConfigMap parent as `render --applyset` reads it, or a custom-resource
 * parent spelled as kubectl spells it, `RESOURCE.GROUP/NAME`
 * (`applysets.platform.example.com/agentplat`), whose kind and scope the cluster tells.
 */
function applySetParent(raw: string, namespace: string): ParentFlag {
  const slash = raw.indexOf('/');
  const resource = slash >= 0 ? raw.slice(0, slash) : '';
  if (!resource.includes('.') || resource.endsWith('.')) return parseApplySetFlag(raw, namespace);
  const name = raw.slice(slash + 1);
  const problem = nameProblem(name, 'ApplySet');
  if (problem !== undefined) throw new UsageError(`--applyset ${raw}: "${name}" is not a valid name: ${problem}`, 'e.g. --applyset applysets.platform.example.com/agentplat');
  const dot = resource.indexOf('.');
  return { resource: resource.slice(0, dot), group: resource.slice(dot + 1), name, namespace };
}

function parseContext(raw: string): number {
  // kubectl and validate --cluster spell the kubeconfig context --context; here it is lines of context.
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--context: expected a whole number of lines, found "${raw}"`, `for example -U 5; diff's kubeconfig context is --kube-context ${raw} (helm's spelling), with --cluster`);
  return Number(raw.trim());
}

/** One rendered side; its problems are reported on stderr under a line naming the side. */
async function renderSide(name: string, loaded: LoadedLayers, files: readonly string[], revision: Revision, req: Omit<ReleaseRequest, 'layers' | 'revision'>, settings: LintSettings, app: App): Promise<Side> {
  const release = await renderLoaded(loaded, { ...req, revision });
  const report = await problemReporter(app, revision, valuesInputs(files, loaded, revision));
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
    app.io.stderr(formatProblems(read.problems, { format: 'text', chalk: await chalkFor(app.io, 'stderr'), inputs: files.map((f) => (f === '-' ? '<stdin>' : f)) }));
    return { info, layers: [] };
  }
  return { info, layers: [], objects: read.objects };
}
