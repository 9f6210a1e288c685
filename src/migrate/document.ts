// Small edits on a yaml Document that keep the user's comments and key order: pairs are moved
// or renamed as whole objects (their comments travel with them), never rebuilt from plain data.

import { isMap, isScalar, Pair, Scalar, visit, YAMLMap, type Document, type Node } from 'yaml';
import { isPlainSafe } from '../yaml/plain-safe.ts';

export type Path = readonly string[];

/**
 * Whether the file writes its flow collections with a space inside the brackets (`[ a, b ]`,
 * `{ a: 1 }`) or without (`[a, b]`): the first non-empty one decides. The document is written
 * back that way, so that the lines migrate does not change keep the user's spelling (the yaml
 * library would pad every one).
 */
export function flowPadding(doc: Document, text: string): boolean {
  let padded: boolean | undefined;
  visit(doc, {
    Collection(_, node) {
      if (!node.flow || node.items.length === 0 || !node.range) return undefined;
      padded = /\s/.test(text[node.range[0] + 1] ?? '');
      return visit.BREAK;
    },
  });
  return padded ?? true;
}

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

/**
 * Makes `node` hold the string `value` so that every reader reads it back as that string. The
 * migrated file is read by helm (go-yaml, YAML 1.1) and by tools such as PyYAML (also 1.1), which
 * take `on`, `no`, `y`, `010`, `1_000`, `1:20` or `~` written plain for booleans, numbers or null,
 * while this file is parsed as YAML 1.2, where they are strings. The node's own quoting (the
 * user's quotes, a block) is kept; a plain node whose string plain would read as something else is
 * double-quoted.
 */
export function setString(node: Scalar, value: string): Scalar {
  node.value = value;
  if ((node.type === undefined || node.type === Scalar.PLAIN) && !isPlainSafe(value)) node.type = Scalar.QUOTE_DOUBLE;
  return node;
}

/** A new node for the string `value`, quoted as the node `like` (the one it replaces) is, else as setString quotes it. */
export function stringScalar(value: string, like?: unknown): Scalar {
  const node = new Scalar<unknown>(value);
  if (isScalar(like) && like.type !== undefined) node.type = like.type;
  return setString(node, value);
}

/** Sets a scalar at `path`, keeping the existing node (and its comment) when there is one; a string stays a string (setString). */
export function setScalar(doc: Document, path: Path, value: unknown): void {
  const parent = ensureMap(doc, path.slice(0, -1));
  const key = path[path.length - 1]!;
  const pair = pairOf(parent, key);
  const node = pair && isScalar(pair.value) ? pair.value : new Scalar<unknown>(value);
  if (typeof value === 'string') setString(node, value);
  else node.value = value;
  if (pair) pair.value = node;
  else parent.items.push(new Pair(new Scalar(key), node));
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
