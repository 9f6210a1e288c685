// Flux's Kustomize post-renderers (`spec.postRenderers[].kustomize`): the rendered objects go through
// Kustomize's strategic merge patches, JSON 6902 patches and image overrides, in Kustomize's order
// (patches as strategic merge, then as JSON 6902, then images), before the release is applied.
// What fails Kustomize's build fails the release, and is an error Problem at the patch in the
// user's file: a patch without `target` whose own kind and name match no object (Kustomize's
// PatchTransformer looks it up by id and fails), a JSON 6902 patch without a target, an operation
// whose path does not exist. A `target` that selects no object is not an error for Kustomize (it
// patches the empty selection): a warning.
import type { Problem } from '../problems/problem.ts';
import { cloneTree } from '../values/merge.ts';
import type { GitopsRuleId } from './rules.ts';

type Obj = Record<string, unknown>;

export interface Selector {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

export interface PatchStep {
  type: 'strategic-merge' | 'json6902';
  /** The patch: an object (strategic merge) or a list of operations (JSON 6902). */
  patch: unknown;
  /** Without it, a strategic merge patch targets the object its own kind and name name. */
  target?: Selector;
  /** Where the patch is written: its position in the user's file and its label (`HelmRelease ns/name: spec.postRenderers[0].kustomize.patches[0]`). */
  at: PatchPlace;
}

export interface PatchPlace {
  file?: string;
  line?: number;
  column?: number;
  excerpt?: string;
  /** The object and the key of the patch, for the message. */
  label: string;
  /** The key path of the patch in the object (`spec.postRenderers[0].kustomize.patches[0]`). */
  path: string;
}

export interface ImageStep {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

export interface KustomizeStep {
  patches: PatchStep[];
  images: ImageStep[];
}

/** What the post-renderers made of the rendered objects, and what they found wrong (errors: the controller fails the release). */
export interface PostRendered<T> {
  docs: T[];
  problems: Problem[];
}

class PatchFailed extends Error {}

function problemAt(at: PatchPlace, severity: Problem['severity'], rule: GitopsRuleId, message: string, hint: string): Problem {
  return {
    severity,
    rule,
    path: at.path,
    message: `${at.label}: ${message}`,
    hint,
    ...(at.file !== undefined ? { file: at.file } : {}),
    ...(at.line !== undefined ? { line: at.line } : {}),
    ...(at.column !== undefined ? { column: at.column } : {}),
    ...(at.excerpt !== undefined ? { excerpt: at.excerpt } : {}),
  };
}

/** The post-renderers as one function over the rendered objects (each object is copied before it changes); a patch that fails Kustomize stops there, as the release fails. */
export function postRenderer(steps: readonly KustomizeStep[]): <T extends { object: object }>(docs: T[]) => PostRendered<T> {
  return <T extends { object: object }>(docs: T[]): PostRendered<T> => {
    let out = docs.map((d) => ({ ...d, object: cloneTree(d.object) as object }));
    const problems: Problem[] = [];
    for (const step of steps) {
      for (const p of [...step.patches.filter((x) => x.type === 'strategic-merge'), ...step.patches.filter((x) => x.type === 'json6902')]) {
        const done = applyPatch(out, p);
        problems.push(...done.problems);
        if (problems.some((x) => x.severity === 'error')) return { docs: out, problems };
        out = done.docs;
      }
      if (step.images.length > 0) for (const d of out) setImages(d.object as Obj, step.images);
    }
    return { docs: out, problems };
  };
}

const CHECK_HINT = 'compare the kind and name with `agentplat render` of this HelmRelease (names carry the release name), or remove the patch';

function applyPatch<T extends { object: object }>(docs: T[], p: PatchStep): PostRendered<T> {
  if (p.type === 'json6902' && !p.target) {
    return { docs, problems: [problemAt(p.at, 'error', 'gitops/json-patch', 'a JSON 6902 patch without a target: Kustomize needs one to know which objects to patch, so Flux fails the release', 'add a target (kind and name of the object to patch)')] };
  }
  const selector = p.target ?? ownTarget(p.patch);
  const hits = docs.filter((d) => matches(d.object as Obj, selector));
  if (hits.length === 0) {
    if (!p.target) {
      const elsewhere = selector.namespace === '|default' ? docs.find((d) => matches(d.object as Obj, { ...selector, namespace: '' })) : undefined;
      if (elsewhere) {
        const ns = String(((elsewhere.object as Obj).metadata as Obj).namespace);
        return { docs, problems: [problemAt(p.at, 'error', 'gitops/patch-no-match', `the patch names no namespace, and Kustomize merges it only into an object without one (or in default); ${String((elsewhere.object as Obj).kind)} ${String(((elsewhere.object as Obj).metadata as Obj).name)} is rendered in namespace ${ns}, so Flux fails the release`, `add metadata.namespace: ${ns} to the patch`)] };
      }
      return { docs, problems: [problemAt(p.at, 'error', 'gitops/patch-no-match', `no rendered object is the patch's own target (${selectorText(selector)}): Kustomize finds nothing to merge it into, so Flux fails the release`, CHECK_HINT)] };
    }
    return { docs, problems: [problemAt(p.at, 'warning', 'gitops/patch-target-empty', `the patch's target (${selectorText(selector)}) selects no rendered object: Kustomize applies it to nothing, and Flux installs the release without it`, CHECK_HINT)] };
  }
  const out: T[] = [];
  try {
    for (const d of docs) {
      if (!hits.includes(d)) out.push(d);
      else if (p.type === 'json6902') out.push({ ...d, object: jsonPatch(d.object as Obj, p.patch as Obj[]) });
      else {
        const patched = strategicMerge(d.object as Obj, withoutIdentity(p.patch as Obj, p.target !== undefined), [], kindGroup(d.object as Obj));
        if (patched !== undefined) out.push({ ...d, object: patched as object });
      }
    }
  } catch (err) {
    if (!(err instanceof PatchFailed)) throw err;
    return { docs, problems: [problemAt(p.at, 'error', 'gitops/json-patch', `${err.message}, so Flux fails the release`, 'check the path against `agentplat render` of this HelmRelease')] };
  }
  return { docs: out, problems: [] };
}

function ownTarget(patch: unknown): Selector {
  const o = (patch ?? {}) as Obj;
  const meta = (o.metadata ?? {}) as Obj;
  const [group, version] = splitApiVersion(String(o.apiVersion ?? ''));
  return {
    ...(o.kind ? { kind: String(o.kind) } : {}),
    ...(o.apiVersion ? { group, version } : {}),
    ...(meta.name ? { name: escapeRegex(String(meta.name)) } : {}),
    // Kustomize matches by namespace too: a patch without one (or in default) is an object's
    // of the default namespace, so it matches only objects rendered without one or in default.
    namespace: meta.namespace && meta.namespace !== 'default' ? escapeRegex(String(meta.namespace)) : '|default',
  };
}

/** With an explicit target, the patch's own identity does not rename the objects it patches. */
function withoutIdentity(patch: Obj, targeted: boolean): Obj {
  if (!targeted) return patch;
  const { apiVersion: _a, kind: _k, ...rest } = patch;
  const meta = rest.metadata as Obj | undefined;
  if (!meta) return rest;
  const { name: _n, namespace: _ns, ...m } = meta;
  return Object.keys(m).length > 0 ? { ...rest, metadata: m } : (({ metadata: _m, ...r }) => r)(rest);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function splitApiVersion(apiVersion: string): [string, string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

function selectorText(s: Selector): string {
  const parts = Object.entries(s).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => (k === 'namespace' && v === '|default' ? 'no namespace' : `${k} ${String(v)}`));
  return parts.length > 0 ? parts.join(', ') : 'every object';
}

function matches(o: Obj, s: Selector): boolean {
  const [group, version] = splitApiVersion(String(o.apiVersion ?? ''));
  const meta = (o.metadata ?? {}) as Obj;
  const anchored = (re: string, v: string) => new RegExp(`^(?:${re})$`).test(v);
  if (s.group !== undefined && s.group !== group) return false;
  if (s.version !== undefined && s.version !== '' && s.version !== version) return false;
  if (s.kind !== undefined && s.kind !== '' && s.kind !== o.kind) return false;
  if (s.name !== undefined && s.name !== '' && !anchored(s.name, String(meta.name ?? ''))) return false;
  if (s.namespace !== undefined && s.namespace !== '' && !anchored(s.namespace, String(meta.namespace ?? ''))) return false;
  if (s.labelSelector && !selects(s.labelSelector, (meta.labels ?? {}) as Obj)) return false;
  if (s.annotationSelector && !selects(s.annotationSelector, (meta.annotations ?? {}) as Obj)) return false;
  return true;
}

/** A label selector's requirements (`a=b`, `a==b`, `a!=b`, `a`, `!a`, `a in (x,y)`, `a notin (x)`). */
function selects(selector: string, labels: Obj): boolean {
  const reqs = selector.match(/[^,(]+(?:\([^)]*\))?/g) ?? [];
  return reqs.every((raw) => {
    const r = raw.trim();
    let m = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(r);
    if (m) {
      const set = m[3]!.split(',').map((x) => x.trim());
      const has = Object.prototype.hasOwnProperty.call(labels, m[1]!) && set.includes(String(labels[m[1]!]));
      return m[2] === 'in' ? has : !has;
    }
    m = /^(\S+?)\s*(==|=|!=)\s*(\S*)$/.exec(r);
    if (m) {
      const eq = String(labels[m[1]!] ?? '') === m[3] && Object.prototype.hasOwnProperty.call(labels, m[1]!);
      return m[2] === '!=' ? !eq : eq;
    }
    if (r.startsWith('!')) return !Object.prototype.hasOwnProperty.call(labels, r.slice(1));
    return Object.prototype.hasOwnProperty.call(labels, r);
  });
}

// ---- strategic merge ----

/** Kubernetes' own kinds merge lists by their keys; a custom resource's lists are replaced (no schema says otherwise). */
function kindGroup(o: Obj): boolean {
  const [group] = splitApiVersion(String(o.apiVersion ?? ''));
  return group === '' || !group.includes('.') || group.endsWith('.k8s.io');
}

/** The merge key of a list of the built-in kinds, by the field's name (and its parent for `ports`). */
function mergeKey(path: readonly string[]): string | undefined {
  const field = path[path.length - 1];
  const parent = path[path.length - 2];
  switch (field) {
    case 'containers': case 'initContainers': case 'ephemeralContainers': case 'volumes': case 'env': case 'imagePullSecrets': case 'resourceClaims':
      return 'name';
    case 'volumeMounts': return 'mountPath';
    case 'volumeDevices': return 'devicePath';
    case 'hostAliases': return 'ip';
    case 'topologySpreadConstraints': return 'topologyKey';
    case 'ports': return parent === 'item' ? 'containerPort' : 'port';
    default: return undefined;
  }
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `patch` merged into `target` (undefined: the object is deleted by `$patch: delete`). */
function strategicMerge(target: unknown, patch: unknown, path: string[], builtin: boolean): unknown {
  if (!isObj(patch)) return cloneTree(patch);
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  const body = Object.fromEntries(Object.entries(patch).filter(([k]) => k !== '$patch' && !k.startsWith('$setElementOrder/') && !k.startsWith('$retainKeys')));
  if (directive === 'replace' || !isObj(target)) return cloneTree(body);
  const out: Obj = { ...target };
  for (const [k, v] of Object.entries(body)) {
    if (v === null) {
      delete out[k];
      continue;
    }
    const below = out[k];
    if (Array.isArray(v) && Array.isArray(below) && builtin) out[k] = mergeList(below, v, [...path, k], builtin);
    else if (isObj(v)) {
      const merged = strategicMerge(below, v, [...path, k], builtin);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
    } else out[k] = cloneTree(v);
  }
  return out;
}

function mergeList(target: unknown[], patch: unknown[], path: string[], builtin: boolean): unknown[] {
  const key = mergeKey(path);
  if (!key || !patch.every(isObj)) {
    const replace = patch.find((p) => isObj(p) && p.$patch === 'replace');
    return replace ? patch.filter((p) => p !== replace).map((p) => cloneTree(p)) : patch.map((p) => cloneTree(p));
  }
  const out = target.map((t) => t);
  for (const item of patch as Obj[]) {
    if (item.$patch === 'replace') return (patch as Obj[]).filter((p) => p !== item).map((p) => cloneTree(p));
    const at = out.findIndex((t) => isObj(t) && t[key] === item[key]);
    if (item.$patch === 'delete') {
      if (at >= 0) out.splice(at, 1);
      continue;
    }
    if (at >= 0) out[at] = strategicMerge(out[at], item, [...path, 'item'], builtin);
    else out.push(strategicMerge(undefined, item, [...path, 'item'], builtin));
  }
  return out;
}

// ---- JSON 6902 ----

function pointer(path: string): string[] {
  if (path === '') return [];
  return path.replace(/^\//, '').split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function jsonPatch(object: Obj, ops: readonly Obj[]): Obj {
  let doc: unknown = cloneTree(object);
  // Kustomize keeps annotations of its own on every object while it works (removed after, with
  // the map when nothing else is left in it): a patch always finds metadata.annotations, so an
  // `add` below it succeeds on an object rendered without annotations.
  const meta = isObj(doc) ? doc.metadata : undefined;
  if (isObj(meta) && meta.annotations === undefined) meta.annotations = {};
  const fail = (i: number, why: string): never => {
    throw new PatchFailed(`operation ${i} (${String(ops[i]?.op)} ${String(ops[i]?.path)}) on ${String(object.kind)} ${String(((object.metadata ?? {}) as Obj).name)}: ${why}`);
  };
  const parentOf = (i: number, segs: string[]): [unknown, string] => {
    let cur = doc;
    for (const s of segs.slice(0, -1)) {
      if (Array.isArray(cur)) cur = cur[Number(s)];
      else if (isObj(cur)) cur = cur[s];
      else cur = undefined;
      if (cur === undefined) fail(i, `the path does not exist`);
    }
    return [cur, segs[segs.length - 1]!];
  };
  const read = (i: number, segs: string[]): unknown => {
    if (segs.length === 0) return doc;
    const [parent, last] = parentOf(i, segs);
    const v = Array.isArray(parent) ? parent[Number(last)] : isObj(parent) ? parent[last] : undefined;
    if (v === undefined) fail(i, 'the path does not exist');
    return v;
  };
  const remove = (i: number, segs: string[]): void => {
    const [parent, last] = parentOf(i, segs);
    read(i, segs);
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete (parent as Obj)[last];
  };
  const add = (i: number, segs: string[], value: unknown, replace: boolean): void => {
    if (segs.length === 0) {
      doc = value;
      return;
    }
    const [parent, last] = parentOf(i, segs);
    if (Array.isArray(parent)) {
      const idx = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(idx) || idx < 0 || idx > parent.length) fail(i, `index ${last} is out of range`);
      if (replace) {
        if (idx >= parent.length) fail(i, 'the path does not exist');
        parent[idx] = value;
      } else parent.splice(idx, 0, value);
    } else if (isObj(parent)) {
      if (replace && !(last in parent)) fail(i, 'the path does not exist');
      parent[last] = value;
    } else fail(i, 'the path does not exist');
  };
  ops.forEach((op, i) => {
    const segs = pointer(String(op.path ?? ''));
    switch (op.op) {
      case 'add': add(i, segs, cloneTree(op.value), false); break;
      case 'replace': add(i, segs, cloneTree(op.value), true); break;
      case 'remove': remove(i, segs); break;
      case 'move': { const from = pointer(String(op.from ?? '')); const v = read(i, from); remove(i, from); add(i, segs, v, false); break; }
      case 'copy': add(i, segs, cloneTree(read(i, pointer(String(op.from ?? '')))), false); break;
      case 'test': if (JSON.stringify(read(i, segs)) !== JSON.stringify(op.value)) fail(i, 'the test failed'); break;
      default: fail(i, `"${String(op.op)}" is not a JSON patch operation`);
    }
  });
  const after = isObj(doc) ? doc.metadata : undefined;
  if (isObj(after) && isObj(after.annotations) && Object.keys(after.annotations).length === 0) delete after.annotations;
  return doc as Obj;
}

// ---- images ----

function setImages(o: unknown, images: readonly ImageStep[]): void {
  if (Array.isArray(o)) {
    for (const x of o) setImages(x, images);
    return;
  }
  if (!isObj(o)) return;
  for (const [k, v] of Object.entries(o)) {
    if ((k === 'containers' || k === 'initContainers' || k === 'ephemeralContainers') && Array.isArray(v)) {
      for (const c of v) if (isObj(c) && typeof c.image === 'string') c.image = newImage(c.image, images);
    }
    setImages(v, images);
  }
}

function newImage(image: string, images: readonly ImageStep[]): string {
  const at = image.indexOf('@');
  const beforeDigest = at >= 0 ? image.slice(0, at) : image;
  const colon = beforeDigest.lastIndexOf(':');
  const hasTag = colon > beforeDigest.lastIndexOf('/');
  const name = hasTag ? beforeDigest.slice(0, colon) : beforeDigest;
  const rule = images.find((r) => r.name === name);
  if (!rule) return image;
  let tail = at >= 0 ? image.slice(at) : hasTag ? beforeDigest.slice(colon) : '';
  if (rule.newTag !== undefined) tail = `:${rule.newTag}`;
  if (rule.digest !== undefined) tail = `@${rule.digest}`;
  return `${rule.newName ?? name}${tail}`;
}
