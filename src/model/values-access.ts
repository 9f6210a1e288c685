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
// through it. It is complete by construction: every map of the tree is reached through the view,
// and every step into a map is recorded, whether the reader goes through `at` (every typed read
// above does) or touches the maps directly (`values.nameOverride`, `{{ .Values.x }}`, a sub-chart
// walking its block). A map is handed out as a view of itself, so the steps into it are recorded
// too; a scalar or a list is handed out as it is and counts as read whole (so does a map whose
// keys are listed). A key is read when a path read whole lies on it or above it, or when a path
// read or entered lies under it.

/**
 * The paths one part of a run read: `whole` read whole (scalars, lists, maps listed), `entered`
 * maps stepped into, `kept` maps handed on as they are in what the part made (printed whole).
 */
export interface PathReads {
  readonly whole: ReadonlySet<string>;
  readonly entered: ReadonlySet<string>;
  readonly kept: ReadonlySet<string>;
}

/** What a run read through a view, by the part of the run that read it (`ReadRecorder.owner`). */
export interface ReadRecorder {
  /** The stand-in to pass instead of the values. */
  readonly view: Values;
  /** Reads from now on count for `owner` (a component's id); undefined stops the recording. */
  owner(owner: string | undefined): void;
  /** Records the maps of the values that `made` holds as they are (views in it), as kept by the current owner. */
  kept(made: unknown): void;
  /** Every owner's paths (`''` read whole: the top-level keys were listed). */
  readonly reads: ReadonlyMap<string, PathReads>;
}

interface Sink {
  whole: Set<string>;
  entered: Set<string>;
  kept: Set<string>;
}

interface View {
  target: Values;
  /** The dotted path of the map this view stands for ('' at the top). */
  prefix: string;
  state: { into: Sink; cache: Map<string, unknown> };
  /** Which paths under it are recorded (recordingView's `interest`): undefined, all of them. */
  interest: Interest | undefined;
}

/**
 * The paths a recording is asked about, as a tree of keys: a path on the way to one of them, at
 * one or under one is recorded; any other is read as it is, unrecorded (`all`: everything under
 * this key is recorded).
 */
interface Interest {
  next: Map<string, Interest>;
  all: boolean;
}

/** The interest below `key` of a map whose interest is `at`: undefined (all recorded), an Interest, or null (nothing recorded). */
function interestBelow(at: Interest | undefined, key: string): Interest | undefined | null {
  if (at === undefined) return undefined;
  const n = at.next.get(key);
  return n === undefined ? null : n.all ? undefined : n;
}

function interestOf(paths: readonly (readonly PathSegment[])[]): Interest | undefined {
  const root: Interest = { next: new Map(), all: false };
  for (const p of paths) {
    let n = root;
    for (const seg of p) {
      const k = String(seg);
      let next = n.next.get(k);
      if (!next) n.next.set(k, (next = { next: new Map(), all: false }));
      n = next;
    }
    n.all = true;
  }
  return root.all ? undefined : root;
}

const VIEWS = new WeakMap<object, View>();

const childPath = (prefix: string, key: string) => {
  const k = key.replace(/[\\.[]/g, (c) => `\\${c}`);
  return prefix === '' ? k : `${prefix}.${k}`;
};

/**
 * A view of the map `target` at `prefix`: steps into it are recorded, maps under it are views too
 * (those `interest` leaves out are handed out as they are, and nothing read of them recorded).
 */
function viewOf(target: Values, prefix: string, state: View['state'], interest: Interest | undefined): Values {
  const children = new Map<string, unknown>();
  const paths = new Map<string, string>();
  const pathOf = (key: string) => {
    let p = paths.get(key);
    if (p === undefined) paths.set(key, (p = childPath(prefix, key)));
    return p;
  };
  const whole = (key: string | symbol) => {
    if (typeof key === 'string' && interestBelow(interest, key) !== null) state.into.whole.add(pathOf(key));
  };
  const view = new Proxy(target, {
    get(t, key) {
      const v = Reflect.get(t, key);
      // The methods every object inherits are not keys of the values.
      if (typeof key !== 'string' || (!Object.hasOwn(t, key) && key in Object.prototype)) return v;
      const below = interestBelow(interest, key);
      return below === null ? v : handOut(v, pathOf(key), state, below, children, key);
    },
    has(t, key) {
      whole(key);
      return Reflect.has(t, key);
    },
    getOwnPropertyDescriptor(t, key) {
      whole(key);
      const d = Reflect.getOwnPropertyDescriptor(t, key);
      if (d && typeof key === 'string' && isPlainMap(d.value)) {
        const below = interestBelow(interest, key);
        if (below !== null) d.value = handOut(d.value, pathOf(key), state, below, children, key);
      }
      return d;
    },
    ownKeys(t) {
      state.into.whole.add(prefix);
      return Reflect.ownKeys(t);
    },
    set(t, key, v) {
      whole(key);
      return Reflect.set(t, key, v);
    },
    deleteProperty(t, key) {
      whole(key);
      return Reflect.deleteProperty(t, key);
    },
    defineProperty(t, key, d) {
      whole(key);
      return Reflect.defineProperty(t, key, d);
    },
  });
  VIEWS.set(view, { target, prefix, state, interest });
  return view;
}

/** A value read at `path`: a map as a view of it (recorded as entered), anything else as it is (read whole). */
function handOut(v: unknown, path: string, state: View['state'], interest: Interest | undefined, cache?: Map<string, unknown>, key?: string): unknown {
  if (isPlainMap(v)) {
    state.into.entered.add(path);
    let child = cache && key !== undefined ? cache.get(key) : undefined;
    if (child === undefined || VIEWS.get(child as object)?.target !== v) {
      child = viewOf(v, path, state, interest);
      if (cache && key !== undefined) cache.set(key, child);
    }
    return child;
  }
  state.into.whole.add(path);
  return v;
}

/** The map a view stands for (`v` itself when it is no view): to compare what a recorded run was given without recording it. */
export function withoutView(v: unknown): unknown {
  return (v !== null && typeof v === 'object' && VIEWS.get(v)?.target) || v;
}

/**
 * A view of `values` that records what is read through it (see above); the first owner is
 * `context`. With `interest`, only the paths on the way to one of those paths, at one or under
 * one are recorded: a read of any other map reads the map itself, at no cost (values/no-effect
 * asks only about the keys the user sets).
 */
export function recordingView(values: Values, interest?: readonly (readonly PathSegment[])[]): ReadRecorder {
  const reads = new Map<string, Sink>();
  const sink = (): Sink => ({ whole: new Set(), entered: new Set(), kept: new Set() });
  const state: View['state'] = { into: sink(), cache: new Map() };
  reads.set('context', state.into);
  const view = viewOf(values, '', state, interest && interestOf(interest));
  const walk = (v: unknown, seen: Set<object>) => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    const held = VIEWS.get(v);
    if (held) {
      state.into.kept.add(held.prefix);
      return;
    }
    for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, seen);
  };
  return {
    view,
    reads,
    kept: (made) => walk(made, new Set()),
    owner(owner) {
      if (owner === undefined) {
        state.into = sink();
        return;
      }
      let into = reads.get(owner);
      if (!into) reads.set(owner, (into = sink()));
      state.into = into;
    },
  };
}

/**
 * A stand-in for merged values whose values can be changed under it: every read goes to the
 * values last `set`. Something built once over it and kept (`values/no-effect`: one render
 * context for every key the context did not read, one shared part of a component for every key
 * that part did not read) is built inside `keeping`: a map read there is handed out as a
 * stand-in too, for the map at the same path of the values set at each later read, at any depth.
 * So what it computes at once comes from the values it was built with, and what it reads later
 * (`images.pullSecrets()`, `env.a2a()`, a piece reading the block its part kept) from the values
 * set then, as one built anew would. Outside `keeping`, maps are handed out as they are (what
 * reads them then is done with them before the next `set`), at no cost beyond the maps'.
 * A kept map that the values set later no longer have is a bug of the caller (what kept it read
 * a changed path, and should have been built anew): reading it throws.
 */
export function switchableValues(initial: Values): { readonly view: Values; set(values: Values): void; keeping<T>(build: () => T): T } {
  const root: SwitchRoot = { current: initial, generation: 0, keeping: false };
  return {
    view: switchView(root, []),
    set(values) {
      if (values === root.current) return;
      root.current = values;
      root.generation++;
    },
    keeping(build) {
      const before = root.keeping;
      root.keeping = true;
      try {
        return build();
      } finally {
        root.keeping = before;
      }
    },
  };
}

interface SwitchRoot {
  current: Values;
  /** Counts the `set`s that changed the values: a stand-in finds its map again after one. */
  generation: number;
  /** Maps read now are kept: handed out as stand-ins. */
  keeping: boolean;
}


/** The stand-in for the map at `path` (keys) of whatever values `root` holds when it is read. */
function switchView(root: SwitchRoot, path: readonly string[]): Values {
  let generation = -1;
  let found: Values | undefined;
  const children = new Map<string, Values>();
  const target = (): Values => {
    if (generation !== root.generation) {
      let cur: unknown = root.current;
      // Indexing only: a recording view (the language server's memory) records a step, not a whole read.
      for (const k of path) cur = isPlainMap(cur) ? cur[k] : undefined;
      found = isPlainMap(cur) ? cur : undefined;
      generation = root.generation;
    }
    if (found === undefined) throw new Error(`bug: a map kept across values switched (${path.join('.')}) is no map of the values now`);
    return found;
  };
  const child = (key: string, v: unknown): unknown => {
    if (!root.keeping || !isPlainMap(v) || (key in Object.prototype && !Object.hasOwn(target(), key))) return v;
    let c = children.get(key);
    if (c === undefined) children.set(key, (c = switchView(root, [...path, key])));
    return c;
  };
  const view = new Proxy({} as Values, {
    get: (_, key) => {
      const v = Reflect.get(target(), key);
      return typeof key === 'string' ? child(key, v) : v;
    },
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(target(), key);
      if (d && typeof key === 'string' && 'value' in d) d.value = child(key, d.value);
      return d;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
    set: () => false,
    deleteProperty: () => false,
    defineProperty: () => false,
  });
  return view;
}

/** The value at `path` of a view, recorded (a map comes back as a view of it). */
function atView(view: View, path: string, segs: readonly PathSegment[]): unknown {
  let cur: unknown = view.target;
  for (const seg of segs) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) !== (typeof seg === 'number')) {
      cur = undefined;
      break;
    }
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) {
      cur = undefined;
      break;
    }
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  let interest: Interest | undefined | null = view.interest;
  for (let i = 0; i < segs.length && interest; i++) interest = interestBelow(interest, String(segs[i]));
  if (interest === null) return cur;
  const full = view.prefix === '' ? path : `${view.prefix}.${path}`;
  return handOut(cur, full, view.state, interest, view.state.cache, full);
}

/**
 * The value at a dotted path (`controller.image.tag`, `a.b[0]`, `podAnnotations.prometheus\.io/scrape`);
 * undefined when any step is missing. Only own keys of maps and indexes of lists are followed.
 */
export function at(values: unknown, path: string): unknown {
  let segs = SEGMENTS.get(path);
  if (!segs) {
    segs = splitPath(path);
    // Paths are the chart's own constants; the bound only guards against a caller with many.
    if (SEGMENTS.size < 10_000) SEGMENTS.set(path, segs);
  }
  const view = VIEWS.get(values as object);
  if (view) return atView(view, path, segs);
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
