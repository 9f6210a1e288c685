// What changes between two sets of CustomResourceDefinitions, and which existing custom resources
// each change can break: versions served or stored, and per version the schema: fields removed,
// types changed, enums, bounds and patterns tightened, required fields and CEL rules
// (x-kubernetes-validations) added. Loosening changes (a new optional field, a wider bound) are
// not listed: nothing that exists breaks on them.
import { deepEqual } from './objects.ts';

export interface CrdChange {
  /** The CRD's name (`agents.agentplat.dev`). */
  crd: string;
  /** The kind it defines (`Agent`). */
  kind: string;
  /** The version the change is in, when it is in one. */
  version?: string;
  /** The schema path (`spec.declarative.runtime`), when the change is in the schema. */
  path?: string;
  /** What changed. */
  change: string;
  /** Which existing resources it can break, and how. */
  breaks: string;
  /** `break`: existing resources or clients can fail; `note`: worth knowing, breaks nothing. */
  severity: 'break' | 'note';
}

type Obj = Record<string, unknown>;
const isMap = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

interface Version {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: Obj;
}

function versionsOf(crd: Obj): Version[] {
  const spec = isMap(crd.spec) ? crd.spec : {};
  const list = Array.isArray(spec.versions) ? spec.versions : [];
  return list.filter(isMap).map((v) => ({
    name: String(v.name),
    served: v.served === true,
    storage: v.storage === true,
    ...(isMap(v.schema) && isMap(v.schema.openAPIV3Schema) ? { schema: v.schema.openAPIV3Schema } : {}),
  }));
}

function kindOf(crd: Obj): string {
  const spec = isMap(crd.spec) ? crd.spec : {};
  return str(isMap(spec.names) ? spec.names.kind : undefined) ?? '';
}

function nameOf(crd: Obj): string {
  return str(isMap(crd.metadata) ? crd.metadata.name : undefined) ?? '';
}

/**
 * Every change between the old and the new CRD of one name (either may be missing: the CRD is
 * new or gone). Listed in version order, then in schema order.
 */
export function crdChanges(old: Obj | undefined, next: Obj | undefined): CrdChange[] {
  const crd = nameOf((old ?? next)!);
  const kind = kindOf((next ?? old)!);
  const out: CrdChange[] = [];
  const add = (c: Omit<CrdChange, 'crd' | 'kind'>) => out.push({ crd, kind, ...c });
  if (!old) {
    add({ change: 'new CustomResourceDefinition', breaks: 'nothing: no resource of this kind exists yet', severity: 'note' });
    return out;
  }
  if (!next) {
    add({ change: 'CustomResourceDefinition removed', breaks: `every ${kind} in the cluster is deleted with its CRD if the CRD is deleted; pruning it deletes them all`, severity: 'break' });
    return out;
  }
  const before = versionsOf(old);
  const after = versionsOf(next);
  const storageBefore = before.find((v) => v.storage)?.name;
  const storageAfter = after.find((v) => v.storage)?.name;
  for (const v of before) {
    const n = after.find((x) => x.name === v.name);
    if (!n) {
      add({
        version: v.name,
        change: `version ${v.name} removed`,
        breaks: v.storage || storageBefore === v.name
          ? `${kind} objects stored at ${v.name}: the API server refuses the CRD update while ${v.name} is in status.storedVersions (migrate the stored objects to ${storageAfter ?? 'the new storage version'} and remove ${v.name} from storedVersions first); manifests and clients using ${v.name} are refused`
          : `manifests and clients that use apiVersion ${v.name} are refused, and objects still stored at ${v.name} (if it ever was the storage version) keep the CRD update from being accepted`,
        severity: 'break',
      });
      continue;
    }
    if (v.served && !n.served) add({ version: v.name, change: `version ${v.name} no longer served`, breaks: `manifests and clients that use apiVersion ${v.name} for ${kind} are refused`, severity: 'break' });
    if (!v.served && n.served) add({ version: v.name, change: `version ${v.name} served again`, breaks: 'nothing', severity: 'note' });
    if (v.schema && n.schema) schemaChanges(v.schema, n.schema, [], (path, change, breaks) => add({ version: v.name, path: path || '(root)', change, breaks: `${kind} objects at ${v.name} ${breaks}`, severity: 'break' }));
  }
  for (const n of after) if (!before.some((v) => v.name === n.name)) add({ version: n.name, change: `version ${n.name} added${n.served ? '' : ' (not served)'}`, breaks: 'nothing', severity: 'note' });
  if (storageBefore !== undefined && storageAfter !== undefined && storageBefore !== storageAfter) {
    add({
      version: storageAfter,
      change: `storage version ${storageBefore} → ${storageAfter}`,
      breaks: `nothing at once: existing ${kind} objects stay stored at ${storageBefore} until they are next written; keep ${storageBefore} in the CRD until a storage migration rewrote them all`,
      severity: 'note',
    });
  }
  return out;
}

type Report = (path: string, change: string, breaks: string) => void;

const BOUNDS: readonly { key: string; tighter: (a: number, b: number) => boolean; what: string }[] = [
  { key: 'minimum', tighter: (a, b) => b > a, what: 'minimum raised' },
  { key: 'maximum', tighter: (a, b) => b < a, what: 'maximum lowered' },
  { key: 'minLength', tighter: (a, b) => b > a, what: 'minLength raised' },
  { key: 'maxLength', tighter: (a, b) => b < a, what: 'maxLength lowered' },
  { key: 'minItems', tighter: (a, b) => b > a, what: 'minItems raised' },
  { key: 'maxItems', tighter: (a, b) => b < a, what: 'maxItems lowered' },
  { key: 'minProperties', tighter: (a, b) => b > a, what: 'minProperties raised' },
  { key: 'maxProperties', tighter: (a, b) => b < a, what: 'maxProperties lowered' },
];

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);
const show = (v: unknown): string => JSON.stringify(v);

/** Tightening changes from schema `a` to schema `b` at `path` (a dotted field path, `[]` for list items). */
function schemaChanges(a: Obj, b: Obj, pathParts: string[], report: Report): void {
  const path = pathParts.join('.').replace(/\.\[\]/g, '[]');
  if (a.type !== undefined && b.type !== undefined && a.type !== b.type) {
    report(path, `type ${show(a.type)} → ${show(b.type)}`, `whose ${path || 'object'} is a ${String(a.type)} are refused when next written, and clients reading it break`);
    return;
  }
  const enumB: unknown[] | undefined = Array.isArray(b.enum) ? b.enum : undefined;
  if (enumB) {
    const before: unknown[] | undefined = Array.isArray(a.enum) ? a.enum : undefined;
    const dropped = before ? before.filter((x) => !enumB.some((y) => deepEqual(x, y))) : undefined;
    if (!before) report(path, `enum added: ${enumB.map(show).join(', ')}`, `with any other value in ${path} are refused when next written`);
    else if (dropped && dropped.length > 0) report(path, `enum values removed: ${dropped.map(show).join(', ')}`, `with ${path} ${dropped.length === 1 ? 'set to it' : 'set to one of them'} are refused when next written`);
  }
  for (const bound of BOUNDS) {
    const [x, y] = [a[bound.key], b[bound.key]];
    if (typeof y !== 'number') continue;
    if (typeof x !== 'number') report(path, `${bound.key} ${y} added`, `whose ${path} is outside it are refused when next written`);
    else if (bound.tighter(x, y)) report(path, `${bound.what}: ${x} → ${y}`, `whose ${path} is outside the new bound are refused when next written`);
  }
  for (const flag of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    if (b[flag] === true && a[flag] !== true) report(path, `${flag} added`, `whose ${path} equals the bound are refused when next written`);
  }
  if (typeof b.pattern === 'string' && b.pattern !== a.pattern) {
    report(path, a.pattern === undefined ? `pattern added: ${b.pattern}` : `pattern changed: ${String(a.pattern)} → ${b.pattern}`, `whose ${path} does not match it are refused when next written`);
  }
  if (a.nullable === true && b.nullable !== true) report(path, 'no longer nullable', `with ${path}: null are refused when next written`);
  const reqA = new Set(Array.isArray(a.required) ? a.required.map(String) : []);
  for (const r of Array.isArray(b.required) ? b.required.map(String) : []) {
    if (!reqA.has(r)) report(join(path, r), 'now required', `without ${join(path, r)} are refused when next written`);
  }
  const rulesA = new Set((Array.isArray(a['x-kubernetes-validations']) ? a['x-kubernetes-validations'] : []).filter(isMap).map((r) => String(r.rule)));
  for (const r of (Array.isArray(b['x-kubernetes-validations']) ? b['x-kubernetes-validations'] : []).filter(isMap)) {
    if (!rulesA.has(String(r.rule))) {
      report(path, `new CEL rule: ${String(r.rule)}`, `that do not satisfy it are refused when ${path || 'the object'} next changes (validation ratcheting lets unchanged values through)`);
    }
  }
  const propsA = isMap(a.properties) ? a.properties : {};
  const propsB = isMap(b.properties) ? b.properties : {};
  const open = b['x-kubernetes-preserve-unknown-fields'] === true;
  for (const [k, sa] of Object.entries(propsA)) {
    const sb = propsB[k];
    if (!isMap(sb)) {
      if (!open) report(join(path, k), 'field removed', `lose ${join(path, k)}: the API server prunes it when they are next written, and manifests that set it are refused with kubectl's field validation`);
      continue;
    }
    if (isMap(sa)) schemaChanges(sa, sb, [...pathParts, k], report);
  }
  if (isMap(a.items) && isMap(b.items)) schemaChanges(a.items, b.items, [...pathParts, '[]'], report);
  if (isMap(a.additionalProperties) && isMap(b.additionalProperties)) schemaChanges(a.additionalProperties, b.additionalProperties, [...pathParts, '*'], report);
}

/** The CRD changes between two sides' objects, by CRD name, sorted by name. */
export function crdSetChanges(oldObjects: readonly Obj[], newObjects: readonly Obj[]): CrdChange[] {
  const isCrd = (o: Obj) => o.kind === 'CustomResourceDefinition' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith('apiextensions.k8s.io/');
  const byName = (list: readonly Obj[]) => new Map(list.filter(isCrd).map((o) => [nameOf(o), o]));
  const [a, b] = [byName(oldObjects), byName(newObjects)];
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  return names.flatMap((n) => (deepEqual(a.get(n), b.get(n)) ? [] : crdChanges(a.get(n), b.get(n))));
}
