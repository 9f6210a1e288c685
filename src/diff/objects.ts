// Two sets of Kubernetes objects compared object by object: which were added, removed or changed,
// matched by API group, kind, namespace and name (not by version: `apps/v1beta2` → `apps/v1` is a
// change of one object, as the API server sees it), and what changed in each, field by field.

export interface ManifestObject {
  /** The render's `# Source:` path, or the file the object was read from. */
  source: string;
  object: Record<string, unknown>;
}

export interface ObjectId {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

export type Status = 'added' | 'removed' | 'changed';

export interface ObjectChange extends ObjectId {
  status: Status;
  /** The old object (removed, changed) and the new one (added, changed), as read. */
  old?: ManifestObject;
  new?: ManifestObject;
}

export interface Comparison {
  /** Added, removed and changed objects, sorted by group, kind, namespace and name. */
  changes: ObjectChange[];
  unchanged: number;
}

export class DuplicateInputError extends Error {}

export function objectId(object: Record<string, unknown>): ObjectId {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const metadata = (object.metadata ?? {}) as Record<string, unknown>;
  return {
    group: apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '',
    kind: String(object.kind ?? ''),
    namespace: typeof metadata.namespace === 'string' ? metadata.namespace : '',
    name: String(metadata.name ?? ''),
  };
}

/** `Deployment.apps agentplat/agentplat-controller`, `ConfigMap ns/name`, `ClusterRole.rbac.authorization.k8s.io name`. */
export function displayId(id: ObjectId): string {
  return `${id.kind}${id.group ? `.${id.group}` : ''} ${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
}

const keyOf = (id: ObjectId): string => JSON.stringify([id.group, id.kind, id.namespace, id.name]);

function byId(side: string, objects: readonly ManifestObject[]): Map<string, ManifestObject> {
  const out = new Map<string, ManifestObject>();
  for (const o of objects) {
    const key = keyOf(objectId(o.object));
    const prev = out.get(key);
    if (prev) throw new DuplicateInputError(`${side}: two objects are both ${displayId(objectId(o.object))} (in ${prev.source} and ${o.source})`);
    out.set(key, o);
  }
  return out;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareIds(a: ObjectId, b: ObjectId): number {
  return cmp(a.group, b.group) || cmp(a.kind, b.kind) || cmp(a.namespace, b.namespace) || cmp(a.name, b.name);
}

/** Every object of either side that differs between them; `side` names each in a duplicate's message. */
export function compareObjects(oldObjects: readonly ManifestObject[], newObjects: readonly ManifestObject[], sides: [string, string] = ['old side', 'new side']): Comparison {
  const before = byId(sides[0], oldObjects);
  const after = byId(sides[1], newObjects);
  const changes: ObjectChange[] = [];
  let unchanged = 0;
  for (const [key, o] of before) {
    const n = after.get(key);
    const id = objectId(o.object);
    if (!n) changes.push({ ...id, status: 'removed', old: o });
    else if (!deepEqual(o.object, n.object)) changes.push({ ...id, status: 'changed', old: o, new: n });
    else unchanged++;
  }
  for (const [key, n] of after) if (!before.has(key)) changes.push({ ...objectId(n.object), status: 'added', new: n });
  changes.sort(compareIds);
  return { changes, unchanged };
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// ---- field by field ----

export interface FieldChange {
  /** `spec.replicas`, `metadata.labels["app.kubernetes.io/version"]`, `spec.template.spec.containers[name=controller].image`. */
  path: string;
  op: 'add' | 'remove' | 'replace';
  /** The old value (remove, replace). */
  from?: unknown;
  /** The new value (add, replace). */
  to?: unknown;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function keyStep(path: string, key: string): string {
  if (PLAIN_KEY.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The `name` of every entry when each entry is a map with a distinct string name (containers, env,
 * ports, volumes): such lists are compared entry by entry, the way the API server merges them.
 */
function names(list: readonly unknown[]): string[] | undefined {
  const out = list.map((e) => (isMap(e) && typeof e.name === 'string' ? e.name : undefined));
  if (out.some((n) => n === undefined) || new Set(out).size !== out.length) return undefined;
  return out as string[];
}

/**
 * What changed from `a` to `b`, field by field, in the order of the old object's keys (new keys
 * after). Maps are compared by key, lists of named entries by name; any other list that differs
 * is one change of the whole list.
 */
export function fieldChanges(a: unknown, b: unknown, path = '', out: FieldChange[] = []): FieldChange[] {
  if (deepEqual(a, b)) return out;
  if (isMap(a) && isMap(b)) {
    for (const k of Object.keys(a)) {
      if (!Object.hasOwn(b, k)) out.push({ path: keyStep(path, k), op: 'remove', from: a[k] });
      else fieldChanges(a[k], b[k], keyStep(path, k), out);
    }
    for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) out.push({ path: keyStep(path, k), op: 'add', to: b[k] });
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const na = names(a);
    const nb = names(b);
    if (na && nb) {
      const before = out.length;
      const step = (n: string) => `${path}[name=${PLAIN_KEY.test(n) ? n : JSON.stringify(n)}]`;
      na.forEach((n, i) => {
        const j = nb.indexOf(n);
        if (j < 0) out.push({ path: step(n), op: 'remove', from: a[i] });
        else fieldChanges(a[i], b[j], step(n), out);
      });
      nb.forEach((n, j) => !na.includes(n) && out.push({ path: step(n), op: 'add', to: b[j] }));
      // The same entries in another order: the order is the change (env entries may refer to earlier ones).
      if (out.length === before) out.push({ path, op: 'replace', from: a, to: b });
      return out;
    }
  }
  out.push({ path, op: 'replace', from: a, to: b });
  return out;
}
