// The language server's memory of values/no-effect's costly step between edits (issue 38: the
// diagnostics of an edit within 50 ms). To judge a key the chart reads, lint renders again the
// parts that read it, without the key, and compares (no-effect.ts, rendersAlike). That answer is
// a function of what those renders read: the recorded render's parts (the context and the parts
// and pieces that render again, which read the release's values at the paths recorded for them)
// and the render without the key (which reads the values without it, recorded here through a
// view as it runs). An answer is kept with those paths, and given again only while each of them
// holds what it held (as far as the read could tell: a map stepped into is still a map; a map
// listed has the same keys in the same order; a map printed whole, or anything else, is the same
// value throughout): the renders would then read the same values, so do the same, so answer the
// same. Anything else is computed anew. Nothing here decides a verdict: what counts as changed,
// the reason and the switch named are lint's own, computed on each run.
//
// How "holds what it held" is checked without looking at every path of every answer:
//   - when the release's values change (a new run), the places where they part from the previous
//     run's are found (partedAt: every map key where they differ, a map whose keys changed order),
//     and every answer (and the render) that read at one of them is dropped: at it or under it; a
//     map listed of which it is a key; a map printed whole at it or above it (touches). What is
//     kept read only paths where the values hold what they held when it was computed.
//   - the values without the key are the release's values except where the key's removal parts
//     them (then and now): a path read clear of those places holds what the release's values hold
//     (above); one on, above or under them is compared as it is (nearKeyHolds).
// The render is kept the same way (the latest one per set of options), and given again while
// nothing it read changed, unless something after the render changes its objects.

import { recordingView, type PathReads } from '../model/values-access.ts';
import { partOf } from '../render/render.ts';
import { isPlainMap, type Values } from '../values/merge.ts';
import type { ChartRenderOptions, RenderWithReads } from '../render/render.ts';
import type { AlikeQuestion } from './no-effect.ts';
import type { EffectMemo } from './render.ts';

type Path = readonly string[];

/** Where two trees part: at `path`, or only in the order of the keys of the map there (`order`). */
interface Part {
  path: Path;
  order?: true;
}

/** One path a render read, and what the values held there. */
interface Seen {
  path: Path;
  /** whole: read whole (of a map: its keys listed, or one asked for); entered: stepped into (a map); kept: printed whole. */
  how: 'whole' | 'entered' | 'kept';
  found: unknown;
}

/** The paths a render read, as a tree of segments. */
interface Reads {
  seen: Seen[];
  whole: boolean;
  kept: boolean;
  next: Map<string, Reads>;
}

interface Answer {
  holders: string;
  /** What the recorded render's parts that render again read of the release's values. */
  withKey: readonly PathReads[];
  /** Where the values without the key part from the release's values it was computed with. */
  removed: Part[];
  /** What the render without the key read of the values without it. */
  withoutKey: Reads;
  alike: boolean;
}

/** What is kept for one set of render options (a GitOps object's releases each have theirs). */
interface Slot {
  /** The release's values of the latest run: every answer kept holds for them. */
  values?: Values;
  answers: Map<string, Answer>;
  render?: { render: RenderWithReads; reads: readonly PathReads[] };
}

/** How many answers (and renders) were given again, and how many computed anew. */
export interface AlikeMemoCounts {
  reused: number;
  computed: number;
  rendersReused: number;
  rendered: number;
}

/** Past this many sets of options or answers the memory starts over (release settings that keep changing). */
const MAX_SLOTS = 8;
const MAX_ANSWERS = 20_000;

/** A memory for one document's lint runs (EffectMemo): answers kept by key and render options, and the latest render. */
export function alikeMemo(): EffectMemo & { readonly counts: AlikeMemoCounts } {
  const slots = new Map<string, Slot>();
  const counts: AlikeMemoCounts = { reused: 0, computed: 0, rendersReused: 0, rendered: 0 };
  const optionsText = new WeakMap<object, string>();
  /** The slot of `options`, brought to `values`: what the change of values touches is dropped. */
  const slotAt = (options: ChartRenderOptions, values: Values): Slot => {
    let text = optionsText.get(options);
    if (text === undefined) optionsText.set(options, (text = JSON.stringify(options)));
    let slot = slots.get(text);
    if (!slot) {
      if (slots.size >= MAX_SLOTS) slots.clear();
      slots.set(text, (slot = { answers: new Map() }));
    }
    if (slot.values !== undefined && slot.values !== values) {
      const d = partedAt(slot.values, values);
      if (d.length > 0) {
        const places = d.map(asRecorded);
        for (const [key, a] of slot.answers) if (places.some((p) => readAt(a.withKey, p)) || d.some((p) => touches(a.withoutKey, p))) slot.answers.delete(key);
        const kept = slot.render;
        if (kept && places.some((p) => readAt(kept.reads, p))) delete slot.render;
      }
    }
    slot.values = values;
    return slot;
  };
  return {
    counts,
    render(values, options, make) {
      // A render is a function of the values it read: while each holds what it held, it is this render.
      const slot = slotAt(options, values);
      if (slot.render) {
        counts.rendersReused++;
        return slot.render.render;
      }
      counts.rendered++;
      const render = make();
      slot.render = { render, reads: [...render.reads.values()] };
      return render;
    },
    alike(q: AlikeQuestion, without: () => Values, compute: (without: Values) => boolean): boolean {
      const slot = slotAt(q.options, q.values);
      const holders = [...q.holders].sort().join('\u0000');
      const before = slot.answers.get(q.key);
      const values = without();
      if (before && before.holders === holders && nearKeyHolds(before, q.values, values)) {
        counts.reused++;
        return before.alike;
      }
      counts.computed++;
      const recorder = recordingView(values);
      const alike = compute(recorder.view);
      recorder.owner(undefined); // what reads the views from here on is not this render
      if (slot.answers.size >= MAX_ANSWERS) slot.answers.clear();
      slot.answers.set(q.key, { holders, withKey: ownersOf(q), removed: partedAt(q.values, values), withoutKey: readsOf(values, [...recorder.reads.values()]), alike });
      return alike;
    },
  };
}

/**
 * Whether what the render without the key read where the key's removal parts the values (then,
 * and now: `values` the release's values, `without` the values without the key) holds what it
 * held. Clear of those places the values without the key hold what the release's values hold,
 * and those hold what they held (slotAt dropped every answer a change of them touches).
 */
function nearKeyHolds(a: Answer, values: Values, without: Values): boolean {
  for (const x of [...a.removed, ...partedAt(values, without)]) {
    for (const s of relatedTo(a.withoutKey, x.path)) if (!sameAt(without, s)) return false;
  }
  return true;
}

/** The read records the answer rests on: the context's and those of every part that renders again (with its pieces); every part's when the context renders again. */
function ownersOf(q: AlikeQuestion): PathReads[] {
  const all = q.holders.has('context');
  const parts = new Set([...q.holders].map(partOf));
  return [...q.render.reads].filter(([owner]) => all || owner === 'context' || parts.has(partOf(owner))).map(([, r]) => r);
}

const node = (): Reads => ({ seen: [], whole: false, kept: false, next: new Map() });

/** The paths of `records` as a tree, each with what `values` hold there (when given). */
function readsOf(values: Values | undefined, records: readonly PathReads[]): Reads {
  const root = node();
  const add = (p: string, how: Seen['how']) => {
    for (const path of pathsOf(p, how)) {
      let n = root;
      for (const seg of path) {
        let next = n.next.get(seg);
        if (!next) n.next.set(seg, (next = node()));
        n = next;
      }
      if (values) n.seen.push({ path, how, found: lookUp(values, path) });
      if (how === 'whole') n.whole = true;
      if (how === 'kept') n.kept = true;
    }
  };
  for (const r of records) {
    for (const p of r.whole) add(p, 'whole');
    for (const p of r.entered) add(p, 'entered');
    for (const p of r.kept) add(p, 'kept');
  }
  return root;
}

/**
 * Whether the values parting at `d` can change what a read of `reads` found: a path read at `d`
 * or under it; a map listed (read whole) of which `d` is a key; a map printed whole at `d` or
 * above it. Keys that only changed order: a map listed or printed whole there, or printed above.
 */
function touches(reads: Reads, d: Part): boolean {
  const { path } = d;
  let n = reads;
  for (let i = 0; i < path.length; i++) {
    if (n.kept || (!d.order && i === path.length - 1 && n.whole)) return true;
    const next = n.next.get(path[i]!);
    if (!next) return false;
    n = next;
  }
  if (d.order) return n.whole || n.kept;
  return true; // a node exists only where a path was read, at it or under it
}

/** A place where values part, written as read records write paths (model/values-access.ts: `\`, `.`, `[` escaped). */
interface Recorded {
  at: string;
  parent: string | undefined;
  order: boolean;
}

function asRecorded(d: Part): Recorded {
  const esc = d.path.map((k) => k.replace(/[\\.[]/g, (c) => `\\${c}`));
  return { at: esc.join('.'), parent: esc.length > 0 ? esc.slice(0, -1).join('.') : undefined, order: d.order === true };
}

/**
 * touches, on read records as they are: a path read at the place or under it; a map listed of
 * which it is a key; a map printed whole at it or above it (for keys that only changed order: a
 * map listed or printed whole there, or printed above). The top ('') could be a key named '' as
 * well: a place there other than an order touches whatever was read.
 */
function readAt(records: readonly PathReads[], d: Recorded): boolean {
  if (d.at === '') return records.some((r) => (d.order ? r.whole.has('') || r.kept.has('') : r.whole.size + r.entered.size + r.kept.size > 0));
  const under = `${d.at}.`;
  const atOrUnder = (p: string) => p === d.at || p.startsWith(under);
  const above = (p: string) => p === '' || under.startsWith(`${p}.`);
  for (const r of records) {
    for (const p of r.kept) if (atOrUnder(p) || above(p)) return true;
    if (d.order) {
      if (r.whole.has(d.at)) return true;
      continue;
    }
    if (d.parent !== undefined && r.whole.has(d.parent)) return true;
    for (const p of r.whole) if (atOrUnder(p)) return true;
    for (const p of r.entered) if (atOrUnder(p)) return true;
  }
  return false;
}

/** What `reads` found on `x`, above it or under it. */
function relatedTo(reads: Reads, x: Path): Seen[] {
  const out: Seen[] = [];
  let n: Reads | undefined = reads;
  for (let i = 0; i < x.length && n; i++) {
    out.push(...n.seen);
    n = n.next.get(x[i]!);
  }
  const under = (m: Reads) => {
    out.push(...m.seen);
    for (const c of m.next.values()) under(c);
  };
  if (n) under(n);
  return out;
}

/**
 * A recorded path as segments (model/values-access.ts writes each key with `\`, `.` and `[`
 * escaped by a backslash, joined by dots). `''` is both the top (its keys listed, or printed
 * whole) and a top-level key named ''; both are kept when it could be either.
 */
function pathsOf(p: string, how: Seen['how']): string[][] {
  if (p === '') return how === 'entered' ? [['']] : [[], ['']];
  const out: string[] = [];
  let seg = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\' && i + 1 < p.length) seg += p[++i];
    else if (c === '.') {
      out.push(seg);
      seg = '';
    } else seg += c;
  }
  out.push(seg);
  return [out];
}

const ABSENT = Symbol('absent');

function lookUp(values: unknown, path: Path): unknown {
  let cur = values;
  for (const seg of path) {
    if (!isPlainMap(cur) || !Object.hasOwn(cur, seg)) return ABSENT;
    cur = cur[seg];
  }
  return cur;
}

/** Whether `values` hold at `s.path` what was found there, as far as the read could tell. */
function sameAt(values: Values, s: Seen): boolean {
  const now = lookUp(values, s.path);
  if (s.how === 'entered') return isPlainMap(now) === isPlainMap(s.found);
  // A map read whole was listed or asked for: what is under it was recorded as read on its own.
  if (s.how === 'whole' && isPlainMap(now) && isPlainMap(s.found)) return now === s.found || sameKeys(now, s.found);
  return same(now, s.found);
}

function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}

/** A map as YAML and the --set family make them (anything else is the same only as itself). */
function plain(v: unknown): v is Record<string, unknown> {
  if (!isPlainMap(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The same value throughout, maps with their keys in the same order. */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (plain(a) && plain(b)) return sameKeys(a, b) && Object.keys(a).every((k) => same(a[k], b[k]));
  return false;
}

/**
 * Every place where two trees part: a key one has and the other has not, a key whose values
 * differ (where they are not both maps: a list is compared whole), a map whose shared keys come
 * in another order (`order`). Nothing outside these places differs.
 */
function partedAt(a: unknown, b: unknown, at: string[] = [], out: Part[] = []): Part[] {
  if (Object.is(a, b)) return out;
  if (!plain(a) || !plain(b)) {
    if (!same(a, b)) out.push({ path: [...at] });
    return out;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  let alike = ka.length === kb.length;
  for (let i = 0; alike && i < ka.length; i++) alike = ka[i] === kb[i];
  if (!alike) {
    const common = ka.filter((k) => Object.hasOwn(b, k));
    const inB = kb.filter((k) => Object.hasOwn(a, k));
    if (common.some((k, i) => k !== inB[i])) out.push({ path: [...at], order: true });
  }
  // One path, grown and shrunk as the walk goes (copied where a place is found).
  for (const k of ka) {
    at.push(k);
    if (alike || Object.hasOwn(b, k)) partedAt(a[k], b[k], at, out);
    else out.push({ path: [...at] });
    at.pop();
  }
  if (!alike) for (const k of kb) if (!Object.hasOwn(a, k)) out.push({ path: [...at, k] });
  return out;
}
