// Layering with Helm's rules, written down once:
//   - layers apply in order: revision defaults, then each -f file, then the --set family;
//   - a map merges key by key into the map below it;
//   - any other value (scalar or list) replaces what was below; lists never merge;
//   - an explicit null deletes the key, so a default can be removed;
//   - inputs are never mutated.

import type { Location, PathSegment, ValuesSource } from './source.ts';
import { hasPath } from './source.ts';

export type Values = Record<string, unknown>;

export function isPlainMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Merges `over` onto `base` (returns a new tree; neither input is changed). */
export function mergeValues(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const below = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
    if (value === null) {
      delete out[key];
    } else if (isPlainMap(value) && isPlainMap(below)) {
      setOwn(out, key, mergeValues(below, value));
    } else {
      setOwn(out, key, stripNulls(value));
    }
  }
  return out;
}

/** A map written where nothing was below keeps its own nulls out (Helm drops them too). */
function stripNulls(value: unknown): unknown {
  if (!isPlainMap(value)) return value;
  const out: Values = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) setOwn(out, k, stripNulls(v));
  return out;
}

/**
 * Plain assignment would let a key named `__proto__` replace the object's prototype; that key is
 * defined as an own property. Every other key is assigned (defineProperty on every key was a
 * measurable part of each render).
 */
function setOwn(obj: Values, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

export interface LayeredValues {
  /** The merged tree the linter and the renderer work on. */
  values: Values;
  /** Layers in order, lowest first (defaults first). */
  sources: readonly ValuesSource[];
  /** Where the value at `path` came from: the deepest written prefix, in the latest layer that wrote it. */
  locate(path: readonly PathSegment[]): Location | undefined;
  /** The layer that last wrote `path` exactly, if any. */
  originOf(path: readonly PathSegment[]): ValuesSource | undefined;
}

export function layerValues(sources: readonly ValuesSource[]): LayeredValues {
  let values: Values = {};
  for (const s of sources) values = mergeValues(values, s.data);
  const originOf = (path: readonly PathSegment[]) => {
    for (let i = sources.length - 1; i >= 0; i--) if (hasPath(sources[i]!.data, path)) return sources[i];
    return undefined;
  };
  return {
    values,
    sources,
    originOf,
    locate(path) {
      for (let len = path.length; len >= 0; len--) {
        const prefix = path.slice(0, len);
        const src = originOf(prefix);
        if (src && (len > 0 || sources.length > 0)) {
          const loc = src.locate(prefix);
          if (loc) return loc;
        }
      }
      return undefined;
    },
  };
}

/** Reads a value by path; undefined when any step is missing. */
export function getPath(data: unknown, path: readonly PathSegment[]): unknown {
  let cur: unknown = data;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string, unknown>)[seg as string];
  }
  return cur;
}

/**
 * Splits a dotted values path (`a.b[0].c`) into segments. A backslash takes the next character
 * literally, so `podAnnotations.prometheus\.io/scrape` has two segments, as in --set.
 */
export function splitPath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  let name = '';
  let pendingName = false;
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === '\\' && i + 1 < path.length) {
      name += path[++i];
      pendingName = true;
    } else if (c === '.') {
      if (pendingName) out.push(name);
      name = '';
      pendingName = false;
    } else if (c === '[' && /^\[\d+\]/.test(path.slice(i, i + 12))) {
      if (pendingName) out.push(name);
      const close = path.indexOf(']', i);
      out.push(Number(path.slice(i + 1, close)));
      name = '';
      pendingName = false;
      i = close;
    } else {
      name += c;
      pendingName = true;
    }
  }
  if (pendingName) out.push(name);
  return out;
}

/**
 * Joins segments to the dotted form used in Problems (`a.b[0].c`); the inverse of splitPath, so
 * `.`, `[` and `\` inside a key are escaped with a backslash.
 */
export function joinPath(path: readonly PathSegment[]): string {
  let s = '';
  for (const seg of path) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else {
      const escaped = seg.replace(/[\\.[]/g, (c) => `\\${c}`);
      s += s === '' ? escaped : `.${escaped}`;
    }
  }
  return s;
}
