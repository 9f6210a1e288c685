// What the API server's decoder does to a custom resource before its schema is checked: nulls of
// known fields dropped, schema defaults applied, and the fields it does not know found its way.
// Also the small shapes the other parts of validate share (a path in an object, a map).
import type { Schema } from '../crds/k8s-types.ts';
import { coreUri } from '../crds/ids.ts';

export type Path = (string | number)[];
export type Json = unknown;

// ---- defaults ----

/** Applies schema defaults to absent fields, top-down, as the API server does before validating. */
export function applyDefaults(s: Schema, data: Json): void {
  if (Array.isArray(data)) {
    if (s.items) for (const item of data) applyDefaults(s.items, item);
    return;
  }
  if (!isObject(data)) return;
  if (s.properties) {
    for (const [k, sub] of Object.entries(s.properties)) {
      if (data[k] === undefined && sub.default !== undefined) data[k] = structuredClone(sub.default);
      if (data[k] !== undefined) applyDefaults(sub, data[k]);
    }
  } else if (s.additionalProperties) {
    for (const v of Object.values(data)) applyDefaults(s.additionalProperties, v);
  }
}

// ---- nulls ----

/**
 * Drops `null` values of known fields, before defaulting, as the API server does when it decodes
 * a custom resource: no field of these CRDs is nullable, so a null is taken as "not set" (and
 * the field's default, if any, then fills it). Nulls inside lists, and under fields the schema
 * does not know, stay and fail validation as they do on the server.
 */
export function pruneNulls(s: Record<string, unknown>, defs: Record<string, Record<string, unknown>>, data: Json): void {
  const node = resolveRef(s, defs);
  if (Array.isArray(data)) {
    const items = node.items as Record<string, unknown> | undefined;
    if (items) for (const item of data) pruneNulls(items, defs, item);
    return;
  }
  if (!isObject(data)) return;
  const props = node.properties as Record<string, Record<string, unknown>> | undefined;
  const extra = node.additionalProperties;
  for (const [k, v] of Object.entries(data)) {
    const sub = props && Object.hasOwn(props, k) ? props[k] : isObject(extra) ? extra : undefined;
    if (!sub) continue;
    if (v === null) delete data[k];
    else pruneNulls(sub, defs, v);
  }
}

const refIndex = new WeakMap<object, Map<string, Record<string, unknown>>>();

function resolveRef(s: Record<string, unknown>, defs: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const ref = s.$ref;
  if (typeof ref !== 'string') return s;
  let byUri = refIndex.get(defs);
  if (!byUri) refIndex.set(defs, (byUri = new Map(Object.entries(defs).map(([id, d]) => [coreUri(id), d]))));
  return byUri.get(ref) ?? s;
}

// ---- unknown fields ----

export interface UnknownField {
  path: Path;
  /**
   * The value whose shape the schema does not have (a map or a list where the schema has a
   * scalar, a list or a map), when that is why the field is unknown: the value to fix.
   */
  misfit?: Path;
}

/**
 * The fields the API server's decoder does not know, found its way: it walks the object along the
 * schema and takes a key of a map as unknown where the schema node has no such property and no
 * schema for other keys. So every key of a map given where a scalar or a list belongs is unknown,
 * and so is every key of a map inside a list given where something else belongs; a list of
 * scalars in the wrong place has no unknown field (the schema check names it). With strict field
 * validation the server refuses the object for these alone, naming each. Nothing is looked into
 * below a node that keeps unknown fields (`{}`), nor `apiVersion`, `kind` and `metadata` at the
 * root (metadata is decoded as ObjectMeta: its unknown fields are the schema check's).
 */
export function decoderUnknownFields(root: Record<string, unknown>, defs: Record<string, Record<string, unknown>>, data: Json): UnknownField[] {
  const out: UnknownField[] = [];
  const walk = (s: Record<string, unknown> | undefined, v: Json, path: Path, misfit: Path | undefined): void => {
    const node = s === undefined ? undefined : resolveRef(s, defs);
    if (node !== undefined && Object.keys(node).length === 0) return;
    if (Array.isArray(v)) {
      const items = node?.items as Record<string, unknown> | undefined;
      v.forEach((item, i) => walk(items, item, [...path, i], items === undefined ? (misfit ?? path) : misfit));
      return;
    }
    if (!isObject(v)) return;
    const props = node?.properties as Record<string, Record<string, unknown>> | undefined;
    const extra = node?.additionalProperties;
    for (const [k, sub] of Object.entries(v)) {
      if (path.length === 0 && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) continue;
      const p = props && Object.hasOwn(props, k) ? props[k] : isObject(extra) ? extra : undefined;
      if (p !== undefined) walk(p, sub, [...path, k], misfit);
      // An object node that keeps unknown fields beside its properties (ajv reads it so too).
      else if (props !== undefined && extra === undefined) continue;
      // An object node: a plain unknown field. Anything else: the map itself is the fault.
      else out.push(props !== undefined || extra !== undefined ? { path: [...path, k] } : { path: [...path, k], misfit: misfit ?? path });
    }
  };
  walk(root, data, [], undefined);
  return out;
}

/** The kinds of list objects (`List`, `AgentList`, `DeploymentList`, …): their items are objects. */
export const LIST_KIND = /List$/;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
