// Layering with Helm's rules, written down once (helm's `MergeValues`, then `CoalesceValues`):
//   - the user's layers build one tree, in order: each -f file merges into it (maps key by key,
//     anything else, null included, replaces), then each flag edits that tree in place, so
//     `--set l[2]=x` extends a list a file wrote and `--set l[0].a=x` edits its first item;
//   - the chart's defaults are then coalesced under that tree: a map merges into the default map
//     below it, any other value (scalar or list) replaces it; lists never merge;
//   - a null in the user's tree removes the key wherever the chart has it: a key of the defaults
//     (a null default included), or a key the chart declares and the defaults leave unset (an
//     optional key: a sub-chart's own values file holds it), so a default can be removed and a
//     null means the same on every key; a null for a key the chart does not have stays null, as
//     in helm;
//   - inputs are never mutated.

import type { Location, PathSegment, ValuesSource } from './source.ts';
import { hasPath } from './source.ts';
import type { KeyTree } from '../chart/values-nodes.ts';

export type Values = Record<string, unknown>;

export function isPlainMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Own-property read: a key named `toString` or `__proto__` is the user's key or nothing. */
export function ownValue(obj: object, key: PathSegment): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? (obj as Record<string, unknown>)[key as string] : undefined;
}

/**
 * Helm's merge of two user layers (`-f a.yaml -f b.yaml`): maps merge key by key, anything else
 * in `over` (a list, a scalar, null) replaces what `base` holds. Returns a new tree.
 */
export function mergeMaps(base: Values, over: Values): Values {
  const out: Values = cloneMap(base, false);
  for (const [key, value] of Object.entries(over)) {
    const below = ownValue(out, key);
    setOwn(out, key, isPlainMap(value) && isPlainMap(below) ? mergeMaps(below, value) : cloneTree(value));
  }
  return out;
}

/**
 * Helm's coalescing of the chart's defaults under the user's tree (`CoalesceValues`): a user
 * null removes the key where the defaults have it, whatever its default (helm deletes it before
 * looking at the default), a user map merges into a default map, any other user value wins, and
 * default keys the user did not write are added (without the defaults' own nulls). `unset` gives
 * the keys the chart declares that the defaults leave unset: a user null there is removed too.
 * Returns a new tree.
 */
export function coalesceValues(user: Values, defaults: Values, unset?: () => KeyTree | undefined): Values {
  const out = cloneMap(user, false);
  for (const [key, def] of Object.entries(defaults)) {
    if (!Object.prototype.hasOwnProperty.call(out, key)) {
      if (def !== null) setOwn(out, key, withoutNulls(def));
      continue;
    }
    const mine = out[key];
    if (mine === null) delete out[key];
    else if (isPlainMap(mine) && isPlainMap(def)) setOwn(out, key, coalesceValues(mine, def, unset && (() => below(unset(), key))));
  }
  if (!unset) return fastMap(out);
  // The user's keys the defaults do not have: a null is removed where the chart declares the key,
  // and a map is walked for nulls below it. The declared keys are looked up only at a null.
  for (const [key, mine] of Object.entries(user)) {
    if (Object.prototype.hasOwnProperty.call(defaults, key) || (mine !== null && !isPlainMap(mine))) continue;
    const declared = () => below(unset(), key);
    if (mine === null) {
      if (declared()) delete out[key];
    } else setOwn(out, key, coalesceValues(mine, {}, declared));
  }
  return fastMap(out);
}

/**
 * The same map, built anew in one step: a map that had many keys added one at a time (or one
 * deleted) is kept by V8 as a dictionary, slow to read; every render reads the merged values many
 * times over (values/no-effect, once per key the user sets).
 */
function fastMap(map: Values): Values {
  return Object.keys(map).length > FAST_KEYS ? { ...map } : map;
}

/** V8 keeps a map that had up to about this many keys added one at a time as it is (fast). */
const FAST_KEYS = 12;

function below(tree: KeyTree | undefined, key: string): KeyTree | undefined {
  return tree && Object.prototype.hasOwnProperty.call(tree, key) ? tree[key] : undefined;
}

/** `over` (a user tree) coalesced onto `base` (defaults): coalesceValues with the arguments in layer order. */
export function mergeValues(base: Values, over: Values): Values {
  return coalesceValues(over, base);
}

/**
 * Default maps lose their nulls before they are added (helm's cleanNilValues). A map with no null
 * anywhere below it through maps is returned as it is, not copied (inputs are never mutated, and
 * lists were always shared): a render of the defaults alone copied every map of them, about half
 * of making the release's values.
 */
export function withoutNulls(value: unknown): unknown {
  if (!isPlainMap(value)) return value;
  const keys = Object.keys(value);
  // Made at the first key whose value changes (a null left out, or a map below that lost one).
  let out: Values | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = value[k];
    const kept = v === null ? undefined : withoutNulls(v);
    if (out === undefined && kept !== v) {
      out = {};
      for (let j = 0; j < i; j++) setOwn(out, keys[j]!, value[keys[j]!]);
    }
    if (out !== undefined && v !== null) setOwn(out, k, kept);
  }
  return out === undefined ? value : fastMap(out);
}

/** A deep copy of plain data (maps and lists; scalars are shared). */
export function cloneTree(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneTree);
  return isPlainMap(value) ? cloneMap(value, true) : value;
}

function cloneMap(map: Values, deep: boolean): Values {
  const out: Values = {};
  for (const [k, v] of Object.entries(map)) setOwn(out, k, deep ? cloneTree(v) : v);
  return out;
}

/**
 * Plain assignment would let a key named `__proto__` replace the object's prototype; that key is
 * defined as an own property. Every other key is assigned (defineProperty on every key was a
 * measurable part of each render).
 */
export function setOwn(obj: Values, key: string, value: unknown): void {
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

/**
 * The user's layers merged as helm merges them (files merge, flags edit in place), then every
 * `chartDefaults` source coalesced under them.
 */
export function layerValues(sources: readonly ValuesSource[]): LayeredValues {
  let values: Values = {};
  for (const s of sources) if (!s.chartDefaults) values = s.apply ? s.apply(values) : mergeMaps(values, s.data);
  for (let i = sources.length - 1; i >= 0; i--) {
    const s = sources[i]!;
    if (s.chartDefaults) values = coalesceValues(values, s.data, s.unsetKeys);
  }
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
  // Most paths are dotted names alone (`controller.image.tag`): split natively, without the walk
  // below (a render splits a few hundred, each once, in V8's interpreter).
  if (!path.includes('\\') && !path.includes('[')) return path.split('.').filter((name) => name !== '');
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
