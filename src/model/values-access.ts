// The one way to read merged values: a path walker (`at`) and three kinds of typed reads on it.
// - `str`, `bool`, `num`, `map`, `list`: for render, where the linter has already checked types;
//   a key the revision does not have reads as the given fallback.
// - `optStr`, `optNum`, `optBool`, `optList`, `optMap`, `strings`: for lint rules, which may see
//   anything the user typed; a value of another type reads as undefined.
// - `asStr`, `asMap`, `asList`, `asBool`: the same coercions on a value already in hand (a
//   sub-chart's block).

import { isPlainMap, splitPath, type Values } from '../values/merge.ts';
import { jsonText } from '../values/big-integers.ts';
import type { PathSegment } from '../values/source.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonMap = { [k: string]: Json };

const SEGMENTS = new Map<string, PathSegment[]>();

// ------------------------------------------------------------------------------------------
// Recording which values a run reads (issue 35: `values/no-effect`, `explain`).
//
// `recordingView(values)` gives a stand-in for the merged values that remembers every path read
// through it. It is complete by construction: a reader either goes through `at` (every typed read
// above does), which records the dotted path it was asked for, or touches the view directly
// (`values.nameOverride`, `{{ .Values.x }}`), which a Proxy records as a read of that top-level
// key. What comes back is the plain value, never a view: reading a map or a list reads its whole
// subtree, and a path records every step on the way to it (a scalar in the way decides too).
// Listing the top-level keys reads everything. A value read this way is a read of the path and
// of every path under it; a key a recorded path runs through or below is a key the run read.

/** The dotted paths read, by the part of the run that read them (`ReadRecorder.owner`). */
export interface ReadRecorder {
  /** The stand-in to pass instead of the values. */
  readonly view: Values;
  /** Reads from now on count for `owner` (a component's id); returns the paths it read so far. */
  owner(owner: string): ReadonlySet<string>;
  /** Every owner's paths. `''` in a set: the whole tree was read (its keys were listed). */
  readonly reads: ReadonlyMap<string, ReadonlySet<string>>;
}

interface View {
  target: Values;
  into: Set<string>;
}

const VIEWS = new WeakMap<object, View>();

/** A view of `values` that records what is read through it (see above); the first owner is `context`. */
export function recordingView(values: Values): ReadRecorder {
  const reads = new Map<string, Set<string>>();
  const state: View = { target: values, into: new Set() };
  reads.set('context', state.into);
  const note = (key: string | symbol) => {
    if (typeof key === 'string') state.into.add(key.replace(/[\\.[]/g, (c) => `\\${c}`));
  };
  const view = new Proxy(values, {
    get(t, key) {
      note(key);
      return Reflect.get(t, key);
    },
    has(t, key) {
      note(key);
      return Reflect.has(t, key);
    },
    getOwnPropertyDescriptor(t, key) {
      note(key);
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
    ownKeys(t) {
      state.into.add('');
      return Reflect.ownKeys(t);
    },
    set() {
      throw new Error('bug: the render wrote into the values');
    },
    deleteProperty() {
      throw new Error('bug: the render wrote into the values');
    },
    defineProperty() {
      throw new Error('bug: the render wrote into the values');
    },
  });
  VIEWS.set(view, state);
  return {
    view,
    reads,
    owner(owner) {
      let into = reads.get(owner);
      if (!into) reads.set(owner, (into = new Set()));
      state.into = into;
      return into;
    },
  };
}

/**
 * The value at a dotted path (`controller.image.tag`, `a.b[0]`, `podAnnotations.prometheus\.io/scrape`);
 * undefined when any step is missing. Only own keys of maps and indexes of lists are followed.
 */
export function at(values: unknown, path: string): unknown {
  const view = VIEWS.get(values as object);
  if (view) {
    view.into.add(path);
    values = view.target;
  }
  let segs = SEGMENTS.get(path);
  if (!segs) {
    segs = splitPath(path);
    // Paths are the chart's own constants; the bound only guards against a caller with many.
    if (SEGMENTS.size < 10_000) SEGMENTS.set(path, segs);
  }
  let cur: unknown = values;
  for (const seg of segs) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) !== (typeof seg === 'number')) return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

export function str(values: Values, path: string, fallback = ''): string {
  const v = at(values, path);
  if (v === undefined || v === null) return fallback;
  return typeof v === 'string' ? v : String(v);
}

export function bool(values: Values, path: string, fallback = false): boolean {
  const v = at(values, path);
  return typeof v === 'boolean' ? v : v === undefined || v === null ? fallback : v === 'true';
}

export function num(values: Values, path: string, fallback: number): number {
  const v = at(values, path);
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return fallback;
}

export function map(values: Values, path: string): JsonMap {
  const v = at(values, path);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonMap) : {};
}

export function list(values: Values, path: string): Json[] {
  const v = at(values, path);
  return Array.isArray(v) ? (v as Json[]) : [];
}

// ------------------------------------------------------------------------------------------
// Reads for rules: the type asked for, else undefined.

export function optStr(values: unknown, path: string): string | undefined {
  const v = at(values, path);
  return typeof v === 'string' ? v : undefined;
}
export function optNum(values: unknown, path: string): number | undefined {
  const v = at(values, path);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
export function optBool(values: unknown, path: string): boolean | undefined {
  const v = at(values, path);
  return typeof v === 'boolean' ? v : undefined;
}
export function optList(values: unknown, path: string): unknown[] | undefined {
  const v = at(values, path);
  return Array.isArray(v) ? v : undefined;
}
export function optMap(values: unknown, path: string): Record<string, unknown> | undefined {
  const v = at(values, path);
  return isPlainMap(v) ? v : undefined;
}
/** The string entries of a list (others left out); [] when there is no list. */
export function strings(values: unknown, path: string): string[] {
  return (optList(values, path) ?? []).filter((x): x is string => typeof x === 'string');
}

// ------------------------------------------------------------------------------------------
// Coercions of a value in hand.

/** Strings as they are, numbers and booleans as text, anything else the fallback. */
export function asStr(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? String(v) : fallback;
}
export function asMap(v: unknown): Values {
  return isPlainMap(v) ? v : {};
}
export function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
export function asBool(v: unknown, fallback = false): boolean {
  return typeof v === 'boolean' ? v : fallback;
}

// ------------------------------------------------------------------------------------------

export function has(values: Values, path: string): boolean {
  return at(values, path) !== undefined;
}

/** Non-empty: not null/undefined/"" and not an empty list or map. */
export function present(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

/** First non-empty string. */
export function firstOf(...candidates: (string | undefined)[]): string {
  for (const c of candidates) if (c !== undefined && c !== '') return c;
  return '';
}

/** `k=v` pairs sorted by key (byte order), comma-joined: the format the controller parses for maps. */
export function sortedPairs(m: JsonMap): string {
  return Object.keys(m)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${k}=${scalarText(m[k])}`)
    .join(',');
}

/** Unique entries, first occurrence order kept. */
export function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

export function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : typeof v === 'object' ? (jsonText(v) as string) : String(v);
}
