// `diff --cluster`: the render checked against a live cluster, object by object, before anything
// is applied. Each object is sent as a server-side apply in dry-run (dryRun=All, strict field
// validation, never forced) under the field manager the user applies with; the server answers
// with the object as it would be stored (compared with the live one), a refusal (admission, schema,
// CEL, webhooks), or a conflict naming the manager that owns a field the render sets. Objects of the
// release that the render no longer holds, and fields the render sets that someone else changed
// (drift), are found from the live objects and their managedFields. Nothing here writes: the
// cluster is reached only through `ClusterClient` (src/cluster/client.ts), whose one mutating
// request is a dry run.
import { sourcePattern } from '../render/manifests.ts';
import { asWritten, ClusterError, type ApiRefusal, type ClusterClient, type GroupVersionKind, type KubeObject } from '../cluster/client.ts';
import { quantity } from './immutable.ts';
import type { Masker } from './mask.ts';
import { deepEqual, displayId, fieldChanges, objectId, type Comparison, type ManifestObject, type ObjectChange, type ObjectId } from './objects.ts';
import { covers, formatPath, parsePath, serverSteps, valueAt, type PathStep } from './paths.ts';

type Obj = KubeObject;

// ---- the request ----

export interface IgnoreRule {
  /** As written, for the note when it matches nothing. */
  text: string;
  kind: RegExp;
  name: RegExp;
  /** A field path in the output's spelling or the server's (paths.ts, `covers`); the rule covers the field and everything under it. */
  path: string;
  used: boolean;
}

/**
 * `KIND/NAME:PATH`, e.g. `Deployment/agentplat-controller:spec.replicas`, `Deployment.apps/*:spec.replicas`,
 * `ConfigMap/agentplat-*:data["config.json"]` (or, as the server spells it, `data.config.json`). KIND is `Kind` or `Kind.group`, NAME a name (or
 * `namespace/name`); both take the --show-only patterns (`*`, `?`, `[…]`). Undefined with the
 * reason when the text is not such a rule.
 */
export function parseIgnoreRule(text: string): IgnoreRule | string {
  const colon = text.indexOf(':');
  const slash = text.indexOf('/');
  if (slash < 0 || colon < 0 || colon < slash) return 'write KIND/NAME:PATH, e.g. Deployment/agentplat-controller:spec.replicas';
  const kind = text.slice(0, slash);
  const name = text.slice(slash + 1, colon);
  const path = text.slice(colon + 1);
  if (kind === '' || name === '' || path === '') return 'KIND, NAME and PATH may not be empty: write KIND/NAME:PATH, e.g. Deployment/*:spec.replicas';
  const kindRe = sourcePattern(kind);
  const nameRe = sourcePattern(name);
  if (!kindRe || !nameRe) return 'not a valid pattern: * and ? match within a name, [abc] and [a-z] one character; close every [';
  return { text, kind: kindRe, name: nameRe, path: path.replace(/^\./, ''), used: false };
}

export interface PreflightRequest {
  /** The render to apply, in render order. */
  desired: readonly ManifestObject[];
  /** What was applied last (the old side of a revision or values diff), else undefined: the desired render. */
  lastApplied?: readonly ManifestObject[];
  release: string;
  fieldManager: string;
  /** `applyset.kubernetes.io/part-of` of the members when the release is applied as an ApplySet (kubectl --prune --applyset). */
  applySetId?: string;
  ignore: IgnoreRule[];
  /** Masks secret fields and secret values in what drift shows (mask.ts). */
  mask: Masker;
  /** Masks the secret values inside a server's message. */
  redact: (text: string) => string;
}

// ---- the answer ----

export interface Conflict extends ObjectId {
  manager: string;
  /** The subresource the manager wrote the field through (`scale`: kubectl scale, an autoscaler). */
  subresource?: string;
  /** The field as the output spells it (`spec.replicas`, `data["config.json"]`), whatever the server's spelling. */
  path: string;
  /** The --ignore rules that name the field: they leave out its change and drift, never the conflict the apply meets. */
  ignoredBy?: string[];
  /** The server's message. */
  message: string;
}

export interface Rejection extends ObjectId {
  code: number;
  reason: string;
  message: string;
  causes: { field?: string; message: string }[];
}

export interface Drift extends ObjectId {
  path: string;
  /** The live value (undefined: the field is gone) and the one the render sets. */
  live?: unknown;
  render: unknown;
  /** The managers that own the live value (managedFields), with how and when they wrote it, and the subresource they wrote it through (`scale`). */
  managers: { manager: string; operation?: string; subresource?: string; time?: string }[];
}

/** An object that cannot be dry-run yet: its kind is served only once this apply creates or updates its CRD. */
export interface Unchecked extends ObjectId {
  crd: string;
}

/**
 * An object the user may not check: the API server's authorizer refused to let them read it
 * (`get`) or to send the dry-run apply (`patch`, which a dry run needs as a real apply does).
 */
export interface NotAllowed extends ObjectId {
  verb: 'get' | 'patch';
  message: string;
}

export interface Preflight {
  /** live → dry-run result: added (created), changed, removed (in the cluster, not in the render). */
  comparison: Comparison;
  conflicts: Conflict[];
  rejections: Rejection[];
  drift: Drift[];
  unchecked: Unchecked[];
  /** Objects the user's permissions kept from being checked: the run is incomplete (exit 2). */
  notAllowed: NotAllowed[];
  notes: string[];
}

const CRD_API_GROUP = 'apiextensions.k8s.io';
export const INSTANCE_LABEL = 'app.kubernetes.io/instance';
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const APPLYSET_PART_OF_LABEL = 'applyset.kubernetes.io/part-of';

/** Kinds whose objects copy their owner's labels without an owner reference: never the release's own. */
const COPIES_LABELS = new Set(['/Endpoints', 'discovery.k8s.io/EndpointSlice', '/Event', 'events.k8s.io/Event']);

const isCrd = (o: Obj): boolean => o.kind === 'CustomResourceDefinition' && o.apiVersion.startsWith(`${CRD_API_GROUP}/`);
const key = (id: ObjectId): string => JSON.stringify([id.group, id.kind, id.namespace, id.name]);

/** Requests in flight at once: the checks of objects are independent once the CRDs are done. */
const PARALLEL_REQUESTS = 8;

/** `fn` over `items`, at most `limit` at a time, the results in the order of `items`. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const emptyReport = (): Preflight => ({ comparison: { changes: [], unchanged: 0 }, conflicts: [], rejections: [], drift: [], unchecked: [], notAllowed: [], notes: [] });

function addReport(into: Preflight, r: Preflight): void {
  into.comparison.changes.push(...r.comparison.changes);
  into.comparison.unchanged += r.comparison.unchanged;
  into.conflicts.push(...r.conflicts);
  into.rejections.push(...r.rejections);
  into.drift.push(...r.drift);
  into.unchecked.push(...r.unchecked);
  into.notAllowed.push(...r.notAllowed);
  into.notes.push(...r.notes);
}

export async function preflight(cluster: ClusterClient, req: PreflightRequest): Promise<Preflight> {
  const out = emptyReport();
  const last = new Map((req.lastApplied ?? req.desired).map((o) => [key(objectId(o.object)), o.object]));
  /** group/Kind → the CRD of the render that this apply creates or changes. */
  const pendingCrds = new Map<string, string>();
  // CRDs first, one by one: a custom resource is checked against the CRD as this apply leaves it.
  const crds = req.desired.filter((o) => isCrd(o.object as Obj));
  for (const m of crds) addReport(out, await checkObject(cluster, req, m, last, pendingCrds));
  const others = req.desired.filter((o) => !isCrd(o.object as Obj));
  for (const r of await mapLimited(others, PARALLEL_REQUESTS, (m) => checkObject(cluster, req, m, last, pendingCrds))) addReport(out, r);
  const wanted = new Set(req.desired.map((o) => key(objectId(o.object))));
  const releaseSelector = `${INSTANCE_LABEL}=${req.release},${MANAGED_BY_LABEL}=agentplat`;
  for (const o of await releaseObjects(cluster, req.applySetId !== undefined ? `${APPLYSET_PART_OF_LABEL}=${req.applySetId}` : releaseSelector, out.notes)) {
    const id = objectId(o);
    if (!wanted.has(key(id))) out.comparison.changes.push({ ...id, status: 'removed', old: { source: 'the cluster', object: asWritten(o) } });
  }
  if (req.applySetId !== undefined) {
    // Objects of the release that are no members of the set (applied before the release used it):
    // kubectl --prune --applyset leaves them, so they are named rather than shown as pruned.
    const outside = (await releaseObjects(cluster, releaseSelector, [])).filter((o) => !wanted.has(key(objectId(o))) && (o.metadata.labels as Record<string, string> | undefined)?.[APPLYSET_PART_OF_LABEL] !== req.applySetId);
    if (outside.length > 0) {
      const names = outside.map((o) => objectId(o)).sort(cmpIds).map(displayId);
      out.notes.push(
        `${outside.length} object${outside.length === 1 ? '' : 's'} of the release ${outside.length === 1 ? 'is' : 'are'} not in the render and not in the ApplySet (applied without --applyset): kubectl apply --prune --applyset leaves ${outside.length === 1 ? 'it' : 'them'}; delete ${outside.length === 1 ? 'it' : 'them'} by hand, or run the preflight without --applyset to see ${outside.length === 1 ? 'it' : 'them'} as not in the render: ${names.join(', ')}`,
      );
    }
  }
  out.comparison.changes.sort((a, b) => cmpIds(a, b));
  for (const r of req.ignore) if (!r.used) out.notes.push(`--ignore ${r.text}: matched no field of any object`);
  out.notes.push(...otherApplierNotes(out.conflicts, req.fieldManager));
  out.notes.push(...ignoredConflictNotes(out.conflicts, req.desired));
  const refused = notAllowedNote(out.notAllowed);
  if (refused) out.notes.push(refused);
  return out;
}

/**
 * An authorization refusal (RBAC, or any authorizer), as the API server words it:
 * `deployments.apps "x" is forbidden: User "u" cannot patch resource "deployments" …`. An admission
 * webhook or policy that denies an object answers 403 too, but names itself, not the user.
 */
function isAuthorizationRefusal(r: ApiRefusal): boolean {
  return r.status === 403 && / is forbidden: User "[^"]*" cannot /.test(r.message);
}

/** The objects the user may not check, in one sentence: by verb, the kinds and namespaces. */
export function notAllowedNote(list: readonly NotAllowed[]): string | undefined {
  if (list.length === 0) return undefined;
  const parts: string[] = [];
  for (const verb of ['get', 'patch'] as const) {
    const of = list.filter((n) => n.verb === verb);
    if (of.length === 0) continue;
    const kinds = [...new Set(of.map((n) => `${n.kind}${n.group ? `.${n.group}` : ''}`))].sort();
    const namespaces = [...new Set(of.map((n) => n.namespace).filter((ns) => ns !== ''))].sort();
    const where = namespaces.length > 0 ? ` in namespace${namespaces.length === 1 ? '' : 's'} ${namespaces.join(', ')}` : '';
    parts.push(`${verb}${verb === 'patch' ? ' (the dry-run apply)' : ''} of ${of.length} object${of.length === 1 ? '' : 's'}: ${kinds.join(', ')}${where}`);
  }
  return `not allowed (403 Forbidden): ${parts.join('; ')}; these objects were not checked, and the run exits 2: a dry run needs the permissions of the apply itself (get and patch), so run the preflight with the credentials you apply with`;
}

/** One rendered object: served or not, its live state, the dry run's answer, its drift. */
async function checkObject(cluster: ClusterClient, req: PreflightRequest, m: ManifestObject, last: Map<string, Record<string, unknown>>, pendingCrds: Map<string, string>): Promise<Preflight> {
  const out = emptyReport();
  const desired = withApplySet(m.object as Obj, req.applySetId);
  const id = objectId(desired);
  const gvk = gvkOf(desired);
  const served = (await cluster.resources(gvk.group, gvk.version)).find((r) => r.kind === gvk.kind);
  if (!served) {
    const crd = pendingCrds.get(`${id.group}/${id.kind}`) ?? req.desired.map((d) => d.object as Obj).find((d) => isCrd(d) && crdDefines(d, id.group, id.kind))?.metadata.name;
    if (crd !== undefined) out.unchecked.push({ ...id, crd });
    else out.rejections.push({ ...id, code: 404, reason: 'NotServed', message: `the cluster does not serve ${desired.apiVersion} ${desired.kind}, and no CustomResourceDefinition of the render defines it`, causes: [] });
    return out;
  }
  let live: Obj | undefined;
  try {
    live = await cluster.get(gvk, id.name, served.namespaced ? id.namespace || undefined : undefined);
  } catch (e) {
    if (!(e instanceof ClusterError && e.status === 403)) throw e;
    out.notAllowed.push({ ...id, verb: 'get', message: e.message });
    return out;
  }
  let answer = await cluster.applyDryRun(desired, { fieldManager: req.fieldManager });
  for (const w of answer.warnings) out.notes.push(`${displayId(id)}: the server warns: ${req.redact(w)}`);
  if (!answer.ok && isAuthorizationRefusal(answer.refusal)) {
    out.notAllowed.push({ ...id, verb: 'patch', message: req.redact(answer.refusal.message) });
    return out;
  }
  if (!answer.ok) {
    const conflicts = answer.refusal.status === 409 ? conflictsOf(answer.refusal, desired) : [];
    if (conflicts.length === 0) {
      out.rejections.push(rejection(id, answer.refusal, req.redact));
      return out;
    }
    // The apply meets a conflict whatever the rules say: a rule that names the field is recorded, the conflict stays.
    for (const { steps, ...c } of conflicts) {
      const by = ignoringRules(req.ignore, id, steps);
      out.conflicts.push({ ...id, ...c, ...(by.length > 0 ? { ignoredBy: by } : {}) });
    }
    // What the apply would do once forced (--force-conflicts), asked as a dry run too.
    answer = await cluster.applyDryRun(desired, { fieldManager: req.fieldManager, force: true });
    if (!answer.ok) {
      out.rejections.push(rejection(id, answer.refusal, req.redact));
      return out;
    }
  }
  const before = live ? asWritten(live) : undefined;
  const after = asWritten(answer.object);
  if (isCrd(desired) && !deepEqual(before, after)) {
    const spec = desired.spec as { group?: string; names?: { kind?: string } } | undefined;
    if (spec?.group && spec.names?.kind) pendingCrds.set(`${spec.group}/${spec.names.kind}`, id.name);
  }
  const change: ObjectChange | undefined = before === undefined ? { ...id, status: 'added', new: { source: m.source, object: after } } : changedOrNot(id, m.source, before, after, req.ignore);
  if (change) out.comparison.changes.push(change);
  else out.comparison.unchanged++;
  if (live) {
    // Masked as a pair, so a secret someone changed shows as changed without being shown.
    const [masked, reference] = req.mask.pair(id, live, asStored(id, last.get(key(id)) ?? desired)) as [Obj, Record<string, unknown>];
    out.drift.push(...driftOf(id, reference, masked, req.fieldManager, req.ignore, req.lastApplied !== undefined));
  }
  return out;
}

/** A Secret's `stringData` as the server stores it: base64 under `data` (stringData is write-only). */
function asStored(id: ObjectId, o: Record<string, unknown>): Record<string, unknown> {
  if (id.group !== '' || id.kind !== 'Secret' || !isMap(o.stringData)) return o;
  const { stringData, ...rest } = o;
  const encoded = Object.fromEntries(Object.entries(stringData as Record<string, unknown>).map(([k, v]) => [k, Buffer.from(String(v), 'utf8').toString('base64')]));
  return { ...rest, data: { ...(isMap(o.data) ? o.data : {}), ...encoded } };
}

function gvkOf(o: Obj): GroupVersionKind {
  const i = o.apiVersion.indexOf('/');
  return { group: i < 0 ? '' : o.apiVersion.slice(0, i), version: i < 0 ? o.apiVersion : o.apiVersion.slice(i + 1), kind: o.kind };
}

function cmpIds(a: ObjectId, b: ObjectId): number {
  const c = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return c(a.group, b.group) || c(a.kind, b.kind) || c(a.namespace, b.namespace) || c(a.name, b.name);
}

function crdDefines(crd: Obj, group: string, kind: string): boolean {
  const spec = crd.spec as { group?: string; names?: { kind?: string } } | undefined;
  return spec?.group === group && spec.names?.kind === kind;
}

/** The object with the ApplySet member label kubectl --applyset adds (CRDs stay out of a set). */
function withApplySet(o: Obj, id: string | undefined): Obj {
  if (id === undefined || isCrd(o)) return o;
  return { ...o, metadata: { ...o.metadata, labels: { ...((o.metadata.labels ?? {}) as Record<string, string>), [APPLYSET_PART_OF_LABEL]: id } } };
}

function rejection(id: ObjectId, r: ApiRefusal, redact: (text: string) => string): Rejection {
  return {
    ...id,
    code: r.status,
    reason: r.reason,
    message: redact(r.message),
    causes: r.causes.filter((c) => c.message !== undefined).map((c) => ({ ...(c.field ? { field: c.field } : {}), message: redact(c.message!) })),
  };
}

/**
 * The conflicts of a 409 answer: each cause names the manager (`conflict with "kubectl-edit"
 * using apps/v1`, `conflict with "kubectl" with subresource "scale" using apps/v1`) and the field
 * as the server spells it (`.spec.replicas`, `.data.config.json`), read against the object sent.
 */
function conflictsOf(r: ApiRefusal, sent: Obj): { manager: string; subresource?: string; path: string; steps: PathStep[]; message: string }[] {
  return r.causes
    .filter((c) => c.reason === 'FieldManagerConflict')
    .map((c) => {
      const message = c.message ?? '';
      const field = c.field ?? '';
      const steps = serverSteps(field, sent) ?? [];
      const subresource = /^conflict with "[^"]*" with subresource "([^"]*)"/.exec(message)?.[1];
      return { manager: /conflict with "([^"]*)"/.exec(message)?.[1] ?? '', ...(subresource ? { subresource } : {}), path: steps.length > 0 ? formatPath(steps) : field.replace(/^\./, ''), steps, message };
    });
}

/**
 * One note per --ignore rule that names a field the apply still meets a conflict on: the rule
 * leaves out the field's change and drift, but the render sets the field, so `kubectl apply
 * --server-side` refuses the object until the render leaves the field out or the apply is forced.
 */
function ignoredConflictNotes(conflicts: readonly Conflict[], desired: readonly ManifestObject[]): string[] {
  const byRule = new Map<string, Conflict[]>();
  for (const c of conflicts) for (const r of c.ignoredBy ?? []) byRule.set(r, [...(byRule.get(r) ?? []), c]);
  const sent = new Map(desired.map((o) => [key(objectId(o.object)), o.object]));
  return [...byRule].map(([rule, cs]) => {
    const fields = cs.map((c) => {
      const value = valueAt(sent.get(key(c)), parsePath(c.path) ?? []);
      const owner = `"${c.manager}"${c.subresource ? ` through the ${c.subresource} subresource` : ''}`;
      return `${c.path} of ${displayId(c)} (owned by ${owner}; the render sets ${value === undefined ? 'it' : JSON.stringify(value)})`;
    });
    return `--ignore ${rule} leaves out changes and drift, not conflicts: the render still sets ${fields.join(', ')}, so kubectl apply --server-side refuses ${cs.length === 1 ? 'that object' : 'those objects'}; make the render leave the field out, or apply with --force-conflicts to take the field over (it is then set to the render's value)`;
  });
}

/**
 * Conflicts with another server-side apply manager (the server names an Apply manager alone; an
 * Update manager `using` its API version): most often the release itself, applied under another
 * field manager (`kubectl apply --server-side` without `--field-manager` applies as "kubectl").
 * One note per such manager, with the flag that makes the preflight ask as that manager.
 */
function otherApplierNotes(conflicts: readonly Conflict[], fieldManager: string): string[] {
  const byManager = new Map<string, number>();
  for (const c of conflicts) {
    if (c.manager !== '' && c.message.trim() === `conflict with ${JSON.stringify(c.manager)}`) byManager.set(c.manager, (byManager.get(c.manager) ?? 0) + 1);
  }
  return [...byManager].map(
    ([manager, n]) =>
      `${n} conflict${n === 1 ? ' is' : 's are'} with fields that "${manager}" applied (server-side apply): if you apply this release as "${manager}"${manager === 'kubectl' ? ' (kubectl apply --server-side without --field-manager)' : ''}, run the preflight with --field-manager ${manager}; an apply as "${fieldManager}" is refused on ${n === 1 ? 'it' : 'them'} unless forced`,
  );
}

// ---- what the server sets ----

function changedOrNot(id: ObjectId, source: string, before: Obj, after: Obj, rules: IgnoreRule[]): ObjectChange | undefined {
  const fields = fieldChanges(before, after).filter((f) => !ignored(rules, id, parsePath(f.path) ?? []));
  if (fields.length === 0) return undefined;
  if (rules.length > 0 && fields.length !== fieldChanges(before, after).length) {
    // Show only what is not ignored: the ignored fields keep their live value on the new side.
    return { ...id, status: 'changed', old: { source: 'the cluster', object: before }, new: { source, object: keepIgnored(before, after, id, rules) } };
  }
  return { ...id, status: 'changed', old: { source: 'the cluster', object: before }, new: { source, object: after } };
}

/** `after` with each ignored field set back to its value in `before`. */
function keepIgnored(before: Obj, after: Obj, id: ObjectId, rules: IgnoreRule[]): Obj {
  const copy = structuredClone(after);
  for (const f of fieldChanges(before, after)) {
    const steps = parsePath(f.path) ?? [];
    if (!ignored(rules, id, steps)) continue;
    setAtPath(copy, before, steps);
  }
  return copy;
}

/** Writes `from`'s value at `steps` into `into`; a field `from` lacks is removed from `into`. */
function setAtPath(into: unknown, from: unknown, steps: readonly PathStep[]): void {
  if (steps.length === 0 || into === null || typeof into !== 'object') return;
  const [s, ...rest] = steps as [PathStep, ...PathStep[]];
  const at = (o: unknown): string | number | undefined => {
    if (o === null || typeof o !== 'object') return undefined;
    if ('key' in s) return Array.isArray(o) ? undefined : s.key;
    if (!Array.isArray(o)) return undefined;
    if ('index' in s) return s.index < o.length ? s.index : undefined;
    const i = o.findIndex((e) => isMap(e) && e.name === s.name);
    return i < 0 ? undefined : i;
  };
  const ia = at(into);
  const ib = at(from);
  const value = ib === undefined ? undefined : (from as Record<string | number, unknown>)[ib];
  if (rest.length > 0) {
    if (ia !== undefined) setAtPath((into as Record<string | number, unknown>)[ia], value, rest);
    return;
  }
  if (Array.isArray(into)) {
    if (value === undefined) {
      if (typeof ia === 'number') into.splice(ia, 1);
    } else if (typeof ia === 'number') into[ia] = structuredClone(value);
    else into.push(structuredClone(value));
  } else if ('key' in s) {
    const m = into as Record<string, unknown>;
    if (value === undefined) delete m[s.key];
    else m[s.key] = structuredClone(value);
  }
}

// ---- --ignore ----

/** The rules that cover the field at `steps` of the object (the field itself or one above it), as written; each is marked used. */
function ignoringRules(rules: IgnoreRule[], id: ObjectId, steps: readonly PathStep[]): string[] {
  const out: string[] = [];
  for (const r of rules) {
    if (!(r.kind.test(id.kind) || r.kind.test(`${id.kind}.${id.group}`))) continue;
    if (!(r.name.test(id.name) || r.name.test(`${id.namespace}/${id.name}`))) continue;
    if (!covers(r.path, steps)) continue;
    r.used = true;
    out.push(r.text);
  }
  return out;
}

const ignored = (rules: IgnoreRule[], id: ObjectId, steps: readonly PathStep[]): boolean => ignoringRules(rules, id, steps).length > 0;

// ---- drift ----

interface ManagedEntry {
  manager?: string;
  operation?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/**
 * The fields `reference` sets whose live value differs and that another field manager wrote (a
 * `kubectl edit`, a patch, `kubectl scale`, a controller): drift is what someone else changed, so
 * a field of `reference` whose live value no manager owns is no drift: a field the render adds,
 * or a value the server defaulted. With `removals` (the reference is the render applied last, the
 * old side of a two-sided diff), such a field is drift too: the last apply set it and nobody holds
 * it now, so someone removed it (the server drops a removed field from every manager's set). A
 * difference in a field the manager still owns is the server's normal form of the same value or
 * a change still to apply, not drift.
 */
function driftOf(id: ObjectId, reference: Record<string, unknown>, live: Obj, fieldManager: string, rules: IgnoreRule[], removals: boolean): Drift[] {
  const managed = (Array.isArray(live.metadata.managedFields) ? live.metadata.managedFields : []) as ManagedEntry[];
  const out: Drift[] = [];
  const found = (steps: PathStep[], ref: unknown, liveValue: unknown) => {
    if (liveValue === undefined && isEmpty(ref)) return;
    const owners = managed.filter((m) => m.fieldsV1 && owns(m.fieldsV1, steps));
    if (owners.some((m) => m.manager === fieldManager && !m.subresource)) return;
    if (owners.length === 0 && !removals) return;
    if (ignored(rules, id, steps)) return;
    out.push({
      ...id,
      path: formatPath(steps),
      ...(liveValue !== undefined ? { live: liveValue } : {}),
      render: ref,
      managers: owners.map((m) => ({ manager: m.manager ?? '', ...(m.operation ? { operation: m.operation } : {}), ...(m.subresource ? { subresource: m.subresource } : {}), ...(m.time ? { time: m.time } : {}) })),
    });
  };
  const walk = (ref: unknown, lv: unknown, steps: PathStep[]): void => {
    if (isMap(ref)) {
      if (!isMap(lv)) return found(steps, ref, lv);
      for (const k of Object.keys(ref)) {
        if (steps.length === 0 && (k === 'status' || k === 'apiVersion' || k === 'kind')) continue;
        const next = [...steps, { key: k }];
        if (!Object.hasOwn(lv, k)) found(next, ref[k], undefined);
        else walk(ref[k], lv[k], next);
      }
      return;
    }
    if (Array.isArray(ref) && Array.isArray(lv)) {
      const names = namedEntries(ref);
      const liveNames = namedEntries(lv);
      if (names && liveNames) {
        names.forEach((n, i) => {
          const j = liveNames.indexOf(n);
          if (j < 0) found([...steps, { name: n, item: ref[i] }], ref[i], undefined);
          else walk(ref[i], lv[j], [...steps, { name: n, item: lv[j] }]);
        });
        return;
      }
      // Entries without names, of maps (ports, rules): entry by entry, so that a field the server
      // defaults inside an entry (a port's protocol) is no drift.
      if (ref.length === lv.length && ref.every(isMap) && lv.every(isMap)) {
        ref.forEach((e, i) => walk(e, lv[i], [...steps, { index: i, item: lv[i] }]));
        return;
      }
    }
    if (!deepEqual(ref, lv) && !sameQuantity(formatPath(steps), ref, lv)) found(steps, ref, lv);
  };
  walk(reference, live, []);
  return out;
}

/** Fields the API server stores as a resource.Quantity, in its canonical form: `limits.cpu`, `requests.memory`, `hard.pods`, `sizeLimit`, … */
const QUANTITY_FIELD = /(?:^|\.)(?:limits|requests|hard|capacity|allocatable|overhead)(?:\.[^.[\]]+|\["[^"]*"\])$|(?:^|\.)sizeLimit$/;

/**
 * A quantity the render wrote in another form than the server stores it (`2` and "2", "1000m"
 * and "1", "1024Mi" and "1Gi"): the same value, not drift, whoever applied it.
 */
function sameQuantity(path: string, ref: unknown, live: unknown): boolean {
  if (!QUANTITY_FIELD.test(path)) return false;
  const a = quantity(ref);
  const b = quantity(live);
  return a !== undefined && b !== undefined && Math.abs(a - b) <= Math.abs(a) * 1e-12;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** null, {} and []: what the server does not store, so a live object without them has not drifted. */
function isEmpty(v: unknown): boolean {
  return v === null || (Array.isArray(v) && v.length === 0) || (isMap(v) && Object.keys(v).length === 0);
}

function namedEntries(list: readonly unknown[]): string[] | undefined {
  const out = list.map((e) => (isMap(e) && typeof e.name === 'string' ? e.name : undefined));
  if (out.some((n) => n === undefined) || new Set(out).size !== out.length) return undefined;
  return out as string[];
}

/**
 * Whether a managedFields set (fieldsV1: `f:<field>`, list items as `k:{…}` by their keys or
 * `v:<value>`) holds the field at `steps`, or an atomic field above it.
 */
export function owns(fields: Record<string, unknown>, steps: readonly PathStep[]): boolean {
  let node: Record<string, unknown> = fields;
  for (const s of steps) {
    const next = 'key' in s ? node[`f:${s.key}`] : itemNode(node, s.item);
    if (!isMap(next)) return false;
    // A field owned with nothing under it is owned whole (an atomic map or list).
    if (Object.keys(next).length === 0) return true;
    node = next;
  }
  return true;
}

function itemNode(node: Record<string, unknown>, item: unknown): unknown {
  for (const [k, v] of Object.entries(node)) {
    if (k.startsWith('k:')) {
      let keys: unknown;
      try {
        keys = JSON.parse(k.slice(2));
      } catch {
        continue;
      }
      if (isMap(keys) && isMap(item) && Object.entries(keys).every(([f, want]) => deepEqual(item[f], want))) return v;
    } else if (k.startsWith('v:')) {
      try {
        if (deepEqual(JSON.parse(k.slice(2)), item)) return v;
      } catch {
        continue;
      }
    }
  }
  return undefined;
}

// ---- objects of the release the render no longer holds ----

/**
 * The release's objects in the cluster: with --applyset, the set's members (what kubectl --prune
 * deletes); else every object labelled with the release (`app.kubernetes.io/instance`) and made
 * by agentplat (`app.kubernetes.io/managed-by`), less what controllers made from them (objects with
 * an owner, Endpoints and EndpointSlices that copy a Service's labels).
 */
async function releaseObjects(cluster: ClusterClient, labelSelector: string, notes: string[]): Promise<Obj[]> {
  const out: Obj[] = [];
  const forbidden: string[] = [];
  const versions = [{ group: '', version: 'v1' }, ...(await cluster.groups()).map((g) => ({ group: g.name, version: g.preferredVersion }))];
  const resources = (await mapLimited(versions, PARALLEL_REQUESTS, (v) => cluster.resources(v.group, v.version))).flat().filter((res) => res.verbs.includes('list') && !COPIES_LABELS.has(`${res.group}/${res.kind}`));
  const lists = await mapLimited(resources, PARALLEL_REQUESTS, async (res) => {
    const what = `${res.kind}${res.group ? `.${res.group}` : ''}`;
    try {
      const listed = await cluster.list(res, { labelSelector });
      if (listed.forbidden.length > 0) forbidden.push(`${what} in ${listed.forbidden.join(', ')}`);
      return listed.items;
    } catch (err) {
      if ((err as { status?: number }).status !== 403) throw err;
      forbidden.push(what);
      return [];
    }
  });
  for (const o of lists.flat()) {
    const owners = o.metadata.ownerReferences;
    if (!(Array.isArray(owners) && owners.length > 0)) out.push(o);
  }
  if (forbidden.length > 0) notes.push(`not allowed to list ${forbidden.sort().join('; ')}: objects of the release there that the render no longer holds are not shown`);
  return out;
}

/** The cluster a preflight ran against, as its report names it. */
export interface ClusterInfo {
  context: string;
  server: string;
  fieldManager: string;
  /** The ApplySet id the release is applied as (--applyset), when given. */
  applySet?: string;
}
