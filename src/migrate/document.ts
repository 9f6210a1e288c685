// Small edits on a yaml Document that keep the user's comments and key order: pairs are moved
// or renamed as whole objects (their comments travel with them), never rebuilt from plain data.

import { isMap, isScalar, Pair, Scalar, YAMLMap, type Document, type Node } from 'yaml';

export type Path = readonly string[];

/** The map at `path` (the document root for []), or undefined when absent or not a map. */
export function mapAt(doc: Document, path: Path): YAMLMap | undefined {
  let cur: unknown = doc.contents;
  for (const key of path) {
    if (!isMap(cur)) return undefined;
    cur = pairOf(cur, key)?.value;
  }
  return isMap(cur) ? cur : undefined;
}

export function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => keyOf(p) === key);
}

export function keyOf(pair: Pair): string | undefined {
  return isScalar(pair.key) ? String(pair.key.value) : undefined;
}

/** The pair at `path` (its last segment is the key), or undefined. */
export function pairAt(doc: Document, path: Path): Pair | undefined {
  const parent = mapAt(doc, path.slice(0, -1));
  return parent ? pairOf(parent, path[path.length - 1]!) : undefined;
}

/** The plain value at `path` (undefined when absent). */
export function valueAt(doc: Document, path: Path): unknown {
  const pair = pairAt(doc, path);
  if (!pair) return undefined;
  const v = pair.value as Node | null;
  return v === null ? null : typeof (v as { toJSON?: unknown }).toJSON === 'function' ? (v as { toJSON(): unknown }).toJSON() : v;
}

/** Removes the pair at `path`; returns it. Maps the removal leaves empty are removed too. */
export function removeAt(doc: Document, path: Path): Pair | undefined {
  const parentPath = path.slice(0, -1);
  const parent = mapAt(doc, parentPath);
  if (!parent) return undefined;
  const i = parent.items.findIndex((p) => keyOf(p) === path[path.length - 1]);
  if (i < 0) return undefined;
  const [pair] = parent.items.splice(i, 1);
  if (parent.items.length === 0 && parentPath.length > 0) removeAt(doc, parentPath);
  return pair;
}

/** The map at `path`, created (appended at the end of each parent) when missing. */
export function ensureMap(doc: Document, path: Path): YAMLMap {
  let cur = doc.contents as YAMLMap;
  for (const key of path) {
    const pair = pairOf(cur, key);
    if (pair && isMap(pair.value)) {
      cur = pair.value;
      continue;
    }
    const created = new YAMLMap();
    if (pair) pair.value = created;
    else cur.items.push(new Pair(new Scalar(key), created));
    cur = created;
  }
  return cur;
}

/** Sets a scalar at `path`, keeping the existing node (and its comment) when there is one. */
export function setScalar(doc: Document, path: Path, value: unknown): void {
  const parent = ensureMap(doc, path.slice(0, -1));
  const key = path[path.length - 1]!;
  const pair = pairOf(parent, key);
  if (pair && isScalar(pair.value)) pair.value.value = value;
  else if (pair) pair.value = new Scalar(value);
  else parent.items.push(new Pair(new Scalar(key), new Scalar(value)));
}

/** Renames the key of the pair at `path` in place (position and comments kept). */
export function renameKey(doc: Document, path: Path, to: string): boolean {
  const pair = pairAt(doc, path);
  if (!pair || !isScalar(pair.key)) return false;
  pair.key.value = to;
  return true;
}

/** True for values that say nothing: "", null, {}, [] (recursively for maps). */
export function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).every(isEmptyValue);
  return false;
}
