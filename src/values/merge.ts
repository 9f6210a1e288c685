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

/** Merges `over` onto `base` (returns a new tree). */
export function mergeValues(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === null) {
      delete out[key];
    } else if (isPlainMap(value) && isPlainMap(out[key])) {
      out[key] = mergeValues(out[key] as Values, value);
    } else {
      out[key] = stripNulls(value);
    }
  }
  return out;
}

/** A map written where nothing was below keeps its own nulls out (Helm drops them too). */
function stripNulls(value: unknown): unknown {
  if (!isPlainMap(value)) return value;
  const out: Values = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = stripNulls(v);
  return out;
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
    cur = (cur as Record<string, unknown>)[seg as string];
  }
  return cur;
}

/** Splits a dotted values path (`a.b[0].c`) into segments; keys never contain dots in this chart. */
export function splitPath(path: string): PathSegment[] {
  if (path === '') return [];
  const out: PathSegment[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) { out.push(part); continue; }
    if (m[1]) out.push(m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) out.push(Number(idx[1]));
  }
  return out;
}

/** Joins segments to the dotted form used in Problems (`a.b[0].c`). */
export function joinPath(path: readonly PathSegment[]): string {
  let s = '';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : s === '' ? seg : `.${seg}`;
  return s;
}
