// What `diff` and `plan` share: both sides of a comparison, each rendered as `render` renders its
// output (loaded layers through renderLoaded, levels applied) or read from manifests, then compared
// object by object. The operation behind diffOperation and planOperation: a typed request in, the
// sides and their comparison out; each side is handed to `onSide` as soon as it is made, so a run
// that fails later (a file of the new side that cannot be read, two objects with one name) has
// already shown what the sides found.
import { UsageError } from '../problems/errors.ts';
import { secretValues, VALUES_SECRETS } from '../problems/secrets.ts';
import type { Problem } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';
import { type InputReader, type LayerOptions, type LoadedLayers, loadUserLayers, readUserFile, RESOURCES_INPUT } from '../values/load.ts';
import type { Location, ValuesSource } from '../values/source.ts';
import { changeLocations } from '../migrate/origin.ts';
import type { ValuesChangeEffect } from './no-effect.ts';
import type { Change } from '../migrate/changes.ts';
import { showChanges, type ShownChange, type SideInfo } from '../diff/shown.ts';
import { type ReadManifests, readManifestText } from '../diff/manifests.ts';
import { masker, type Masker } from '../diff/mask.ts';
import { compareObjects, type Comparison, DuplicateInputError, type ManifestObject } from '../diff/objects.ts';
import type { RuleLevel } from '../lint/config.ts';
import type { ReleaseRequest } from './render.ts';
import { inputNames, renderLoaded } from './operations.ts';
import { checkReleaseNames, parseApiVersionList, parseKubeVersion } from './request.ts';

export interface Side {
  /** What the report calls the side: `old side`, `new side`, or `the render` (diff --cluster with one render). */
  name: string;
  info: SideInfo;
  /** The objects, or undefined when the side has an error or `accept` refused its warnings. */
  objects?: ManifestObject[];
  /** The layers of a rendered side: their secret values are masked in the output. */
  layers: readonly ValuesSource[];
  /** A rendered side: every problem of its layers and render, levels applied. A manifest: what reading it found. */
  problems: Problem[];
  /** What the problems name as inputs. */
  inputs: string[];
}

/** What `diff` and `plan` take alike: both sides' layers, the release they render, how they are judged. */
export interface CompareRequest {
  from: Revision;
  to: Revision;
  /** The options that name the two revisions, for the hint of a pair migrate cannot do. */
  revisionFlags: [string, string];
  /** The old side's layers (-f, --set…); the new side's too when `toLayers` is not given. */
  layers: LayerOptions;
  /** The new side's own layers (--to-values, --to-set…): it renders those, not the old side's values. */
  toLayers?: LayerOptions;
  /** The old side is this manifest (file, folder or -) instead of a render of `layers`. */
  against?: string;
  /** `diff --cluster` with one render: the new side is the old side's render itself. */
  single?: boolean;
  reader: InputReader;
  releaseName: string;
  namespace: string;
  namespaceDefaulted?: boolean;
  /** --api-versions as given: each entry one API or a comma-separated list. */
  apiVersions: readonly string[];
  /** --kube-version as given. */
  kubeVersion?: string;
  skipCrds?: boolean;
  rules?: Readonly<Record<string, RuleLevel>>;
  ignoreKeys?: readonly string[];
  /** Whether a rendered side's objects are compared, given its problems (the config file's strict and maxWarnings); by default when none is an error. */
  accept?: (problems: readonly Problem[]) => boolean;
  /** Called with each side as soon as it is made, before the next input is read. */
  onSide?: (side: Side) => void | Promise<void>;
}

export interface Sides {
  before: Side & { objects: ManifestObject[] };
  after: Side & { objects: ManifestObject[] };
  /** What migrating the old side's values changed (a revision comparison only). */
  migration?: (Change & { file: string })[];
  /** Where each migration entry's key was written in its layer (same order as `migration`). */
  migrationAt?: (Location | undefined)[];
  comparison: Comparison;
  /** The changes, masked as diff shows them. */
  shown: ShownChange[];
  /** The release both rendered sides render (name, namespace, APIs). */
  release: Omit<ReleaseRequest, 'layers' | 'revision'>;
}

/** Refuses a revision pair `migrate` has no steps for; `flags` name the two revision options in the hint. */
async function checkMigration(from: Revision, to: Revision, flags: [string, string]): Promise<void> {
  const { supportedMigrations } = await import('./migrate.ts');
  if (!supportedMigrations().includes(`${from}→${to}`)) {
    throw new UsageError(`cannot migrate values from revision ${from} to ${to}`, `give the new side's values with --to-values, or compare ${supportedMigrations().map((m) => `${flags[0]} ${m[0]} ${flags[1]} ${m[2]}`).join(', ')}`);
  }
}

function checkStdinOnce(inputs: readonly unknown[]): void {
  if (inputs.filter((f) => f === '-').length > 1) throw new UsageError('standard input (-) can be read only once', 'save one of the inputs to a file');
}

/** The release both sides render. */
function releaseRequest(req: CompareRequest): Omit<ReleaseRequest, 'layers' | 'revision'> {
  checkReleaseNames(req.releaseName, req.namespace);
  return {
    releaseName: req.releaseName,
    namespace: req.namespace,
    ...(req.namespaceDefaulted ? { namespaceDefaulted: true } : {}),
    apiVersions: parseApiVersionList(req.apiVersions),
    ...(req.kubeVersion !== undefined ? { kubeVersion: parseKubeVersion(req.kubeVersion) } : {}),
    ...(req.skipCrds ? { skipCrds: true } : {}),
    ...(req.rules ? { rules: req.rules } : {}),
    ...(req.ignoreKeys ? { ignoreKeys: req.ignoreKeys } : {}),
  };
}

/**
 * Renders (or reads) both sides and compares them, object by object. Undefined when a side has no
 * objects (its problems are on the side handed to `onSide`).
 */
export async function compareSides(req: CompareRequest): Promise<Sides | undefined> {
  const { from, to, against } = req;
  if (against === undefined && !req.toLayers && from !== to) await checkMigration(from, to, req.revisionFlags);
  checkStdinOnce([against, ...(req.layers.values ?? []), ...(req.toLayers?.values ?? [])]);
  const release = releaseRequest(req);
  const made = async (side: Side): Promise<Side> => {
    await req.onSide?.(side);
    return side;
  };
  const renderSide = async (name: string, loaded: LoadedLayers, layers: LayerOptions, revision: Revision): Promise<Side> => {
    const result = await renderLoaded(loaded, { ...release, revision });
    const accepted = result.docs !== undefined && (req.accept ?? ((p) => !p.some((x) => x.severity === 'error')))(result.problems);
    const info: SideInfo = { kind: 'render', revision, values: loaded.sources.map((s) => s.name) };
    const objects = accepted ? result.docs!.map((d) => ({ source: d.source, object: d.object })) : undefined;
    return made({ name, info, layers: loaded.sources, problems: result.problems, inputs: inputNames({ values: layers.values ?? [] }, loaded, revision), ...(objects ? { objects } : {}) });
  };
  const fromLoaded = await loadUserLayers(req.layers, req.reader);
  const before = against !== undefined ? await made(await manifestSide(against, req.reader)) : await renderSide(req.single ? 'the render' : 'old side', fromLoaded, req.layers, from);
  let migration: Sides['migration'];
  let migrationAt: Sides['migrationAt'];
  let after: Side | undefined;
  if (against !== undefined) after = await renderSide('new side', fromLoaded, req.layers, to);
  else if (req.single) after = before;
  else if (req.toLayers) after = await renderSide('new side', await loadUserLayers(req.toLayers, req.reader), req.toLayers, to);
  // Values that fail in their own revision are reported once, not again after migration.
  else if (before.objects) {
    const { migrateLayers } = await import('./migrate.ts');
    const m = await migrateLayers(fromLoaded, from, to, req.rules ?? {});
    migration = m.changes;
    // Where each migrated key was written, in the user's own layer.
    migrationAt = changeLocations(m.changes, fromLoaded.sources);
    after = await renderSide('new side', m.loaded, req.layers, to);
  }
  if (!before.objects || !after?.objects) return undefined;

  const comparison = comparedObjects(before.objects, after.objects);
  const shown = showChanges(comparison, (await maskFor([before, after])).mask);
  return {
    before: { ...before, objects: before.objects },
    after: { ...after, objects: after.objects },
    ...(migration ? { migration } : {}),
    ...(migrationAt ? { migrationAt } : {}),
    comparison,
    shown,
    release,
  };
}

/** The two sides' objects compared; a side that holds one object twice is a usage error. */
export function comparedObjects(before: readonly ManifestObject[], after: readonly ManifestObject[]): Comparison {
  try {
    return compareObjects(before, after, ['the old side', 'the new side']);
  } catch (err) {
    if (err instanceof DuplicateInputError) throw new UsageError(err.message, 'a manifest holds each object once; kubectl would apply only the last of them');
    throw err;
  }
}

/**
 * When the two sides render values of one revision that differ: the keys at which they differ
 * and those of them that change nothing rendered (all of them when the renders are equal; else
 * each key that, put back alone to the old side's value, leaves the new side's render as it is).
 * Undefined when there is no such pair of values sets, or when they do not differ.
 */
export async function inertValuesChange(sides: Sides, from: Revision, to: Revision, against: string | undefined): Promise<ValuesChangeEffect | undefined> {
  if (against !== undefined || from !== to || sides.migration || sides.before === sides.after) return undefined;
  const { valuesChangeEffect } = await import('./no-effect.ts');
  const r = sides.release;
  const options = { revision: to, releaseName: r.releaseName, releaseNamespace: r.namespace, apiVersions: [...r.apiVersions], ...(r.kubeVersion ? { kubeVersion: r.kubeVersion } : {}), ...(r.skipCrds ? { skipCrds: true } : {}) };
  const effect = valuesChangeEffect(to, sides.before.layers, sides.after.layers, options, sides.comparison.changes.length === 0);
  return effect && effect.differing.length > 0 ? effect : undefined;
}

/** The secret values of the layers of both sides, and the masker of diff's output. */
export async function maskFor(sides: readonly Side[]): Promise<{ secrets: Set<string>; mask: Masker }> {
  const secrets = new Set<string>();
  for (const side of sides) for (const l of side.layers) secretValues(l.data, VALUES_SECRETS, secrets);
  const { crdValidationData } = await import('../crds/validation-data.ts');
  const data = crdValidationData();
  return { secrets, mask: masker(secrets, (kind) => data[kind]?.secrets) };
}

/** The old side from a manifest file, standard input, or a folder of manifests. */
async function manifestSide(path: string, reader: InputReader): Promise<Side> {
  const info: SideInfo = { kind: 'manifest', path };
  const { walkResourceDir } = await import('../kube-check/glob.ts');
  const files = path === '-' ? ['-'] : (walkResourceDir(path, reader.cwd) ?? [path]);
  const read: ReadManifests = { objects: [], problems: [] };
  for (const f of files) {
    const { name, text } = await readUserFile(f, reader, RESOURCES_INPUT);
    readManifestText(text, name, read);
  }
  const inputs = files.map((f) => (f === '-' ? '<stdin>' : f));
  if (read.problems.length > 0) return { name: 'old side', info, layers: [], problems: read.problems, inputs };
  return { name: 'old side', info, layers: [], problems: [], inputs, objects: read.objects };
}
