// `agentplat plan`: a comparison of two renders (objects.ts, shown masked by shown.ts) judged as
// an upgrade: which objects an apply creates, updates and deletes, which it cannot update and
// must re-create (immutable.ts), what changes in the CRDs (crd-changes.ts), what touches stored
// data, what it deletes (why, and how to keep it), and where the values migration moved, dropped
// or left a decision on the user's own lines.
import type { Change } from '../migrate/changes.ts';
import { sourceAbsentFrom } from '../render/sources.ts';
import { CHART_NAME, type Revision } from '../chart/revisions.ts';
import type { Location } from '../values/source.ts';
import { crdSetChanges, type CrdChange } from './crd-changes.ts';
import type { ShownChange } from './shown.ts';
import { refusedUpdates, type Refusal } from './immutable.ts';
import { deepEqual, displayId, type Comparison, type FieldChange, type ManifestObject, type ObjectId } from './objects.ts';

export type Action = 'create' | 'update' | 'replace' | 'delete';

export interface MigrationStep extends Change {
  /** The layer the key was written in (a file as given, `--set #1`). */
  file: string;
  line?: number;
  column?: number;
}

export interface PlannedObject extends ObjectId {
  action: Action;
  /** The render's `# Source:` path (the new one, or the old one of a deleted object). */
  source: string;
  /** update and replace: the fields that change (values masked). */
  changes?: FieldChange[];
  /** replace: the refused fields, what to run first, and what is lost. */
  replacement?: Replacement;
}

export interface Replacement {
  refused: Refusal[];
  /** The command that deletes the object before the apply. */
  deleteFirst: string;
  /** What the deletion does to stored data (or to the objects a CRD holds); undefined when it holds none. */
  data?: string;
}

export interface DataChange extends ObjectId {
  /** What changes (`image major version 17 → 18`). */
  what: string;
  /** What it does to the data and what to do. */
  why: string;
}

/**
 * Why an object the old side renders is deleted: `revision`, the new revision ships no template
 * for it whatever the values; `renamed`, the new side renders another object of its kind from the
 * same source in its place; `values`, the new side's values do not render it.
 */
export type DeletionReason = 'revision' | 'renamed' | 'values';

export interface Deletion extends ObjectId {
  reason: DeletionReason;
  /** Why the new side does not render it. */
  why: string;
  /** How to keep it, with the commands. */
  keep: string;
  /** renamed: the name of the object the new side renders in its place. */
  renamedTo?: string;
}

/** What the plan needs to know of the two sides beyond their objects. */
export interface PlanSides {
  from: Revision;
  to: Revision;
  /** The new side's values are the old side's, migrated to `to` (no --to-… layers). */
  migrated: boolean;
  /** The command that renders the old side, as given (`agentplat render --revision A -f values.yaml`); --show-only is added to it. */
  renderOld: string;
}

export interface Plan {
  migration: MigrationStep[];
  objects: PlannedObject[];
  unchanged: number;
  crds: CrdChange[];
  data: DataChange[];
  deletions: Deletion[];
  summary: PlanSummary;
}

export interface PlanSummary {
  create: number;
  update: number;
  replace: number;
  delete: number;
  unchanged: number;
  /** Migration entries that need the user (`decide`). */
  decisions: number;
  /** Migration entries that drop a value the user set, whose effect revision B does not have (`dropped`). */
  droppedSettings: number;
  /** CRD changes that can break existing resources. */
  crdBreaks: number;
  dataChanges: number;
  /** True when any of replace, delete, decisions, droppedSettings, crdBreaks or dataChanges is not zero. */
  attention: boolean;
}

/** The label the chart puts on the bundled database's objects, and its value there. */
const COMPONENT = 'app.kubernetes.io/component';
const DATABASE = 'database';

type Obj = Record<string, unknown>;
const isMap = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `deployment.apps/x -n ns`: the object spelled as kubectl takes it. */
function kubectlObject(id: ObjectId): string {
  const resource = `${id.kind.toLowerCase()}${id.group ? `.${id.group}` : ''}/${id.name}`;
  return `${resource}${id.namespace ? ` -n ${id.namespace}` : ''}`;
}

/** `kubectl delete deployment.apps/x -n ns`: the resource spelled as kubectl takes it. */
export function deleteCommand(id: ObjectId): string {
  return `kubectl delete ${kubectlObject(id)}`;
}

/** What deleting an object to re-create it loses. */
function lossOf(id: ObjectId, object: Obj, recreated: boolean): string | undefined {
  const spec = isMap(object.spec) ? object.spec : {};
  if (id.group === '' && id.kind === 'PersistentVolumeClaim') {
    return `the claim's volume goes with it when its reclaim policy is Delete (the default of provisioned volumes): its data is lost; back it up, or set the PersistentVolume's reclaim policy to Retain first${recreated ? ' and bind the new claim to it' : ''}`;
  }
  if (id.group === 'apps' && id.kind === 'StatefulSet' && Array.isArray(spec.volumeClaimTemplates) && spec.volumeClaimTemplates.length > 0) {
    const policy = isMap(spec.persistentVolumeClaimRetentionPolicy) ? spec.persistentVolumeClaimRetentionPolicy.whenDeleted : undefined;
    return policy === 'Delete'
      ? 'its claims are deleted with it (persistentVolumeClaimRetentionPolicy.whenDeleted: Delete): their data is lost'
      : recreated
        ? 'its pods restart; its claims stay and the new StatefulSet takes them over by name (a changed volumeClaimTemplates applies to new claims only)'
        : 'its claims stay, with their data, until you delete them';
  }
  if (id.group === 'apiextensions.k8s.io' && id.kind === 'CustomResourceDefinition') {
    const kind = isMap(spec.names) ? String(spec.names.kind) : 'resource';
    const plural = String(isMap(spec.names) ? spec.names.plural : '');
    return `every ${kind} in the cluster is deleted with the CRD: export them first (kubectl get ${plural} -A -o yaml)${recreated ? ' and create them again after' : ' if you still need them'}`;
  }
  if (id.group === 'batch' && id.kind === 'Job') return 'its pods and their logs go with it; the new Job runs again';
  return undefined;
}

const labelOf = (o: Obj | undefined, key: string): unknown => (isMap(o?.metadata) && isMap(o.metadata.labels) ? o.metadata.labels[key] : undefined);

/** The major version of an image's tag (`postgres:18.3-alpine` → 18), when the tag starts with a number. */
export function imageMajor(image: string): number | undefined {
  const tag = image.replace(/@.*$/, '').match(/:([^/:]+)$/)?.[1];
  const m = tag?.match(/^v?(\d+)/);
  return m ? Number(m[1]) : undefined;
}

function containers(o: Obj): Obj[] {
  const spec = isMap(o.spec) && isMap(o.spec.template) && isMap(o.spec.template.spec) ? o.spec.template.spec : undefined;
  return [...(Array.isArray(spec?.initContainers) ? spec.initContainers : []), ...(Array.isArray(spec?.containers) ? spec.containers : [])].filter(isMap);
}

function volumes(o: Obj): unknown {
  const spec = isMap(o.spec) && isMap(o.spec.template) && isMap(o.spec.template.spec) ? o.spec.template.spec : undefined;
  return spec?.volumes;
}

/** Changes to the bundled database's objects and to stored volumes, from the raw (unmasked) objects. */
function dataChanges(planned: readonly PlannedObject[], raw: ReadonlyMap<PlannedObject, { old?: Obj; new?: Obj }>): DataChange[] {
  const out: DataChange[] = [];
  for (const p of planned) {
    const { old, new: next } = raw.get(p)!;
    const id: ObjectId = { group: p.group, kind: p.kind, namespace: p.namespace, name: p.name };
    const database = labelOf(old ?? next, COMPONENT) === DATABASE;
    const add = (what: string, why: string) => out.push({ ...id, what, why });
    if (p.action === 'replace' && p.replacement?.data && !(p.group === 'batch' && p.kind === 'Job')) add('re-created', p.replacement.data);
    if (p.action === 'delete' && old) {
      const loss = lossOf(id, old, false);
      if (loss && !(p.group === 'batch' && p.kind === 'Job')) add('deleted', loss);
    }
    if (p.action !== 'update' && p.action !== 'replace') continue;
    if (!database || !old || !next) continue;
    if (containers(old).length > 0) {
      for (const c of containers(next)) {
        const before = containers(old).find((x) => x.name === c.name);
        const [a, b] = [typeof before?.image === 'string' ? before.image : '', typeof c.image === 'string' ? c.image : ''];
        const [ma, mb] = [imageMajor(a), imageMajor(b)];
        if (ma !== undefined && mb !== undefined && ma !== mb) {
          add(`image major version ${ma} → ${mb} (${c.name})`, `a database's files of one major version do not start under another: dump the database before the upgrade and restore it into the new version${mb < ma ? ' (a downgrade cannot read newer files at all)' : ''}`);
        }
      }
      if (!deepEqual(volumes(old), volumes(next))) add('volumes changed', 'the database pod mounts other volumes: if its data volume changed it starts on an empty one (and initialises a new database); copy the data across first');
    }
    if (p.group === '' && p.kind === 'Secret' && (!deepEqual(old.data, next.data) || !deepEqual(old.stringData, next.stringData))) {
      add('credentials changed', 'the database keeps the password it was initialised with: change it in the database too (ALTER USER … PASSWORD), or clients using the new Secret are refused');
    }
  }
  return out;
}

/**
 * Each deleted object with why the new side does not render it and how to keep it. A deletion
 * always needs the user, whatever the values mention: something may rely on the object. An object
 * re-created (replace) is not a deletion; one the new side renders under another name from the
 * same source is (what refers to the old name breaks), and says so.
 */
function deletionsOf(planned: readonly PlannedObject[], sides: PlanSides): Deletion[] {
  const created = planned.filter((p) => p.action === 'create');
  const taken = new Set<PlannedObject>();
  const out: Deletion[] = [];
  for (const p of planned.filter((x) => x.action === 'delete')) {
    const id: ObjectId = { group: p.group, kind: p.kind, namespace: p.namespace, name: p.name };
    const shown = p.source.startsWith(`${CHART_NAME}/`) ? p.source.slice(CHART_NAME.length + 1) : p.source;
    const applyIt = `apply it yourself after the upgrade, outside the release: ${sides.renderOld} --show-only ${shown} | kubectl apply --server-side --field-manager agentplat -f -`;
    const absent = sourceAbsentFrom(sides.to, p.source);
    const twin = absent === undefined ? created.find((c) => !taken.has(c) && c.group === p.group && c.kind === p.kind && c.source === p.source) : undefined;
    if (absent !== undefined) {
      out.push({
        ...id,
        reason: 'revision',
        why: `${absent}: nothing in revision ${sides.to} renders ${p.source}, whatever the values`,
        keep: `${applyIt} (or save the live object, with what was changed in the cluster, before the upgrade: kubectl get ${kubectlObject(id)} -o yaml; drop its status and the metadata the API server sets before applying it)`,
      });
    } else if (twin) {
      taken.add(twin);
      out.push({
        ...id,
        reason: 'renamed',
        why: `renamed: the new side renders ${displayId(twin)} from ${p.source} in its place`,
        keep: `point what refers to ${p.name} by name (your own objects, clients using its DNS name) at ${twin.name}; to keep the old object as well, ${applyIt}`,
        renamedTo: twin.name,
      });
    } else {
      const values = sides.migrated ? `the values migrated to revision ${sides.to}` : "the new side's values";
      out.push({
        ...id,
        reason: 'values',
        why: `${values} do not render it (${p.source} renders it with the old side's)`,
        keep: `set ${values} so that ${p.source} renders it again (agentplat explain KEY names what a key renders), or ${applyIt}`,
      });
    }
  }
  return out;
}

/**
 * The plan of an upgrade: `comparison` and `shown` are what diff makes of the two sides (shown:
 * masked), `migration` the values migration with the position of each key.
 */
export function buildPlan(comparison: Comparison, shown: readonly ShownChange[], oldObjects: readonly ManifestObject[], newObjects: readonly ManifestObject[], migration: readonly MigrationStep[], sides: PlanSides): Plan {
  const raw = new Map<PlannedObject, { old?: Obj; new?: Obj }>();
  const objects = shown.map((s): PlannedObject => {
    const c = s.change;
    const id: ObjectId = { group: c.group, kind: c.kind, namespace: c.namespace, name: c.name };
    const source = (c.new ?? c.old)!.source;
    let p: PlannedObject;
    if (c.status === 'added') p = { action: 'create', ...id, source };
    else if (c.status === 'removed') p = { action: 'delete', ...id, source };
    else {
      const refused = refusedUpdates(id, c.old!.object, c.new!.object);
      if (refused.length === 0) p = { action: 'update', ...id, source, changes: s.fields };
      else {
        const loss = lossOf(id, c.old!.object, true);
        p = { action: 'replace', ...id, source, changes: s.fields, replacement: { refused, deleteFirst: deleteCommand(id), ...(loss ? { data: loss } : {}) } };
      }
    }
    raw.set(p, { ...(c.old ? { old: c.old.object } : {}), ...(c.new ? { new: c.new.object } : {}) });
    return p;
  });
  const crds = crdSetChanges(oldObjects.map((o) => o.object), newObjects.map((o) => o.object));
  const data = dataChanges(objects, raw);
  const deletions = deletionsOf(objects, sides);
  const count = (a: Action) => objects.filter((o) => o.action === a).length;
  const decisions = migration.filter((m) => m.kind === 'decide').length;
  const droppedSettings = migration.filter((m) => m.dropped === true).length;
  const crdBreaks = crds.filter((c) => c.severity === 'break').length;
  const summary: PlanSummary = {
    create: count('create'),
    update: count('update'),
    replace: count('replace'),
    delete: count('delete'),
    unchanged: comparison.unchanged,
    decisions,
    droppedSettings,
    crdBreaks,
    dataChanges: data.length,
    attention: count('replace') + count('delete') + decisions + droppedSettings + crdBreaks + data.length > 0,
  };
  // On the user's lines: each layer's entries in the order of its lines (layers keep their order).
  const layerOrder = [...new Set(migration.map((m) => m.file))];
  const ordered = [...migration].sort((a, b) => layerOrder.indexOf(a.file) - layerOrder.indexOf(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return { migration: ordered, objects, unchanged: comparison.unchanged, crds, data, deletions, summary };
}

/** A migration entry with the position its key was written at, when known. */
export function migrationStep(entry: Change & { file: string }, at: Location | undefined): MigrationStep {
  const { file, ...change } = entry;
  return { file: at?.file ?? file, ...(at?.line !== undefined ? { line: at.line } : {}), ...(at?.column !== undefined ? { column: at.column } : {}), ...change };
}

