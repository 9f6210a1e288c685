// `values/no-effect` and `values/same-as-default` (issue 35): every key the user sets either
// changes what is rendered or is reported, at the line that sets it, with the reason.
//
// The definition: a key the user sets (a leaf of a values file or of a --set flag: a scalar, a
// list, an empty map) has no effect when removing it from the user's layers, keeping the rest,
// leaves the rendered output byte-identical. Each key is decided from the read record of the
// render lint already made (render/render.ts, renderChartWithReads), by the first that applies:
//   1. the layers without it give the same merged values: it repeats the chart's default
//      (`values/same-as-default`, a note);
//   2. a part of the render put the map holding it into an object as it is, so it is printed:
//      it has an effect;
//   3. no part read it, nor a map above it whole, nor anything under it: it has no effect (a
//      render is a function of the values it reads, and a run that reads the same values at the
//      same paths reads nothing else), and the reason names the switch that keeps its reader off
//      when one is found;
//   4. else the parts that read it render again without it (the same components, in-process,
//      with the context built anew; the whole chart when the context read it; a template given
//      the data it had in the first render is not run again) and their objects are compared as
//      `render` prints them (yaml/emit.ts, emittedAlike). A part may read a key and set it
//      aside (a precedence chain that reads both sides, a ServiceMonitor whose API was not
//      declared): only this render tells, and it costs one part's render per key the chart reads.
// Keys another rule already reports on (values/authproxy-no-effect,
// security/authproxy-email-widened, values/provider-api-key-unused, …) are not reported twice,
// nor judged. Lint's record holds only the reads related to the keys the user sets
// (RenderWithReads.interest); a key whose change reaches beyond them is judged on a full record.

import type { Problem } from '../problems/problem.ts';
import type { PathReads } from '../model/values-access.ts';
import type { RenderedDoc } from '../model/objects.ts';
import { emittedAlike } from '../yaml/emit.ts';
import { partOf, renderChart, renderChartWithReads, renderSomeParts, type ChartRenderOptions, type PartMade, type RenderWithReads } from '../render/render.ts';
import { orderDocs } from '../render/order.ts';
import type { Revision } from '../chart/revisions.ts';
import { defaultsSource } from '../values/defaults.ts';
import { getPath, isPlainMap, joinPath, setOwn, splitPath, withoutNulls, type LayeredValues, type Values } from '../values/merge.ts';
import { layerRelease, REPLACE_NOT_MERGE } from '../values/replace.ts';
import { hasPath, type PathSegment, type ValuesSource } from '../values/source.ts';

export const NO_EFFECT_RULE = 'values/no-effect';
export const SAME_AS_DEFAULT_RULE = 'values/same-as-default';

export interface EffectRequest {
  revision: Revision;
  /** The user's layers, in order. */
  layers: readonly ValuesSource[];
  /** The release's values made from them (lintRelease). */
  layered: LayeredValues;
  /** The render of `layered.values` and what it read. */
  render: RenderWithReads;
  options: ChartRenderOptions;
  /** Problems already found: a key one of them names (or lies under) is not reported again. */
  reported: readonly Problem[];
  /** Answers of earlier runs to keep (the language server's, ./alike-memo.ts): asked before the parts that read a key render again without it. */
  memo?: AlikeMemo;
}

/**
 * A memory of whether the parts that read a key render alike without it, between runs over
 * values that change a little each time (an editor's). `alike` answers for `holders` of the
 * recorded `render` of `values` and the values `without()`; `compute` answers anew (given the
 * values without the key, or a stand-in for them that records what it reads).
 */
export interface AlikeMemo {
  alike(q: AlikeQuestion, without: () => Values, compute: (without: Values) => boolean): boolean;
}

/** What an answer of rendersAlike rests on, besides the values without the key. */
export interface AlikeQuestion {
  /** The key (joinPath). */
  key: string;
  /** The parts (and pieces) that read what changes: they render again. */
  holders: ReadonlySet<string>;
  /** The release's values, which `render` rendered. */
  values: Values;
  render: RenderWithReads;
  options: ChartRenderOptions;
}

/** How a key the user sets was decided (tests hold each verdict to a render without the key). */
export type Verdict = { effect: true } | { effect: false; rule: typeof NO_EFFECT_RULE | typeof SAME_AS_DEFAULT_RULE; why: string; rendered: boolean };

/** Every leaf the user's layers set, each once, with the verdict on it. */
export function judgeUserKeys(req: EffectRequest, only?: readonly PathSegment[][]): { path: PathSegment[]; verdict: Verdict }[] {
  let readers = readersOf(req.render);
  let render = req.render;
  // A record made for some paths alone (RenderWithReads.interest) answers for a change at or
  // under one of them; for any other, the render is made again with every read recorded.
  const covered = coverage(render);
  const complete = () => {
    if (render.interest) {
      render = renderChartWithReads(req.layered.values, req.options);
      readers = readersOf(render);
    }
  };
  const defaults = defaultsSource(req.revision);
  const out: { path: PathSegment[]; verdict: Verdict }[] = [];
  for (const path of only ?? userLeaves(req.layers)) {
    let without: () => Values;
    const changed: PathSegment[][] = [];
    const only = onlyLayer(req.layers, path);
    const mine = getPath(req.layered.values, path);
    if (only && !only.apply && mine !== null && !REPLACE_NOT_MERGE.some((r) => related(r.split('.'), path)) && asWritten(mine, getPath(only.data, path))) {
      // One file sets it and the release has what it wrote (a value, or nothing for a null that
      // removed the key): without it, the key holds what the defaults give there (layerRelease
      // would make the same tree, at many times the cost).
      const under = defaultAt(defaults.data, path);
      without = () => setIn(req.layered.values, path, under);
      if (!sameValue(mine, under)) changed.push(path);
    } else {
      const tree = layerRelease(defaults, req.layers.map((l) => withoutKey(l, path))).values;
      without = () => tree;
      changedPaths(req.layered.values, tree, [], changed);
    }
    if (changed.length === 0) {
      out.push({ path, verdict: { effect: false, rule: SAME_AS_DEFAULT_RULE, why: sameWhy(req), rendered: false } });
      continue;
    }
    if (!changed.every(covered)) complete();
    const decided = decide(readers, changed, without, render, req.options, req.memo && { memo: req.memo, key: joinPath(path), values: req.layered.values });
    if (decided === 'effect') out.push({ path, verdict: { effect: true } });
    else out.push({ path, verdict: { effect: false, rule: NO_EFFECT_RULE, why: whyInert(req.layered.values, req.reported, path, decided === 'alike'), rendered: decided === 'alike' } });
  }
  return out;
}

type Reader = { id: string; tree: ReadTree };

/**
 * Whether values that differ from the recorded render's at `changed` render alike: 'unread' when
 * no part read a changed path (no render needed), 'alike' when the parts that read one render
 * the same objects again, else 'effect' (a part printed a changed map whole, or rendered otherwise).
 */
function decide(readers: readonly Reader[], changed: readonly PathSegment[][], values: () => Values, render: RenderWithReads, options: ChartRenderOptions, memo?: { memo: AlikeMemo; key: string; values: Values }): 'effect' | 'unread' | 'alike' {
  const holders = readers.filter((r) => changed.some((c) => r.tree.touches(c)));
  // Printed as written (a map put into an object whole), or read at its own path: it has an
  // effect (see the note at the top on the second).
  if (holders.some((r) => changed.some((c) => r.tree.printed(c)))) return 'effect';
  if (holders.length === 0) return 'unread';
  const touched = new Set(holders.map((r) => r.id));
  const again = (without: Values) => rendersAlike(without, render, options, touched);
  const alike = memo ? memo.memo.alike({ key: memo.key, holders: touched, values: memo.values, render, options }, values, again) : again(values());
  return alike ? 'alike' : 'effect';
}

/** Whether the read record of `render` tells who read a path: every path, unless it was made for some (then those at or under one). */
function coverage(render: RenderWithReads): (path: readonly PathSegment[]) => boolean {
  const asked = render.interest;
  if (!asked) return () => true;
  return (path) => asked.some((a) => a.length <= path.length && a.every((seg, i) => String(seg) === String(path[i])));
}

const readersOf = (render: RenderWithReads): Reader[] => [...render.reads].map(([id, reads]) => ({ id, tree: readTree(reads) }));

/** The findings: a warning (no-effect) or a note (same-as-default) at the line that sets each inert key. */
export function noEffectProblems(req: EffectRequest): Problem[] {
  const problems: Problem[] = [];
  const named = req.reported.filter((p) => p.severity !== 'info' && p.path !== '').map((p) => splitPath(p.path));
  // A key another rule reports on (or one under it) is not reported again, so not judged either.
  const asked = userLeaves(req.layers).filter((path) => !named.some((n) => n.length <= path.length && n.every((seg, i) => String(seg) === String(path[i]))));
  for (const { path, verdict } of judgeUserKeys(req, asked)) {
    if (verdict.effect) continue;
    const key = joinPath(path);
    const loc = writtenAt(req.layers, path);
    const same = verdict.rule === SAME_AS_DEFAULT_RULE;
    problems.push({
      severity: same ? 'info' : 'warning',
      rule: verdict.rule,
      path: key,
      message: same ? `\`${key}\` is set to the value it has without it: ${verdict.why}` : `\`${key}\` has no effect: ${verdict.why}; the rendered output is the same without it`,
      hint: same ? `remove it to keep the file to what differs from the chart, or keep it to pin the value` : `remove \`${key}\`, or change what keeps it from being used`,
      ...(loc?.file ? { file: loc.file } : {}),
      ...(loc?.line ? { line: loc.line } : {}),
      ...(loc?.column ? { column: loc.column } : {}),
      ...(loc?.excerpt !== undefined ? { excerpt: loc.excerpt } : {}),
      ...(loc?.excerptColumn !== undefined ? { excerptColumn: loc.excerptColumn } : {}),
    });
  }
  return problems;
}

/** What `values --computed --show-origin` says of a key the user sets that changes nothing rendered. */
export interface InertKey {
  rule: typeof NO_EFFECT_RULE | typeof SAME_AS_DEFAULT_RULE;
  why: string;
}

/**
 * The keys of the user's layers (each as joinPath writes it) that change nothing rendered, with
 * why: the verdicts of lint's values/no-effect and values/same-as-default. Undefined when the
 * values do not render (lint reports why).
 */
export function inertUserKeys(req: Omit<EffectRequest, 'render'>): Map<string, InertKey> | undefined {
  let render: RenderWithReads;
  try {
    render = renderChartWithReads(req.layered.values, req.options);
  } catch {
    return undefined;
  }
  const out = new Map<string, InertKey>();
  for (const { path, verdict } of judgeUserKeys({ ...req, render })) if (!verdict.effect) out.set(joinPath(path), { rule: verdict.rule, why: verdict.why });
  return out;
}

/** What `diff` and `plan` say of the values of two sides of one revision (valuesChangeEffect). */
export interface ValuesChangeEffect {
  /** The keys (joinPath) at which the two sides' values differ: the deepest key where the merged trees part (a list compared whole). */
  differing: string[];
  /**
   * Those of them that change nothing rendered: every one when the sides render alike (together
   * they change nothing); else each key that, put back alone to the old side's value (the rest of
   * the new side kept), leaves the new side's render as it is.
   */
  inert: string[];
  /** The two sides render alike: `inert` is every differing key. */
  renderedAlike: boolean;
}

/**
 * The keys at which two sets of layers give a release of `revision` different values, and which
 * of them change nothing rendered. `renderedAlike`: the two sides' renders were found equal.
 * Undefined when the new side's values do not render (the caller has reported why).
 */
export function valuesChangeEffect(revision: Revision, before: readonly ValuesSource[], after: readonly ValuesSource[], options: ChartRenderOptions, renderedAlike: boolean): ValuesChangeEffect | undefined {
  const old = layerRelease(defaultsSource(revision), before).values;
  const now = layerRelease(defaultsSource(revision), after).values;
  const paths: PathSegment[][] = [];
  changedPaths(old, now, [], paths);
  const differing = paths.map(joinPath);
  if (renderedAlike || paths.length === 0) return { differing, inert: renderedAlike ? differing : [], renderedAlike };
  let render: RenderWithReads;
  try {
    render = renderChartWithReads(now, options);
  } catch {
    return undefined;
  }
  const readers = readersOf(render);
  const inert = paths.filter((p) => decide(readers, [p], () => setIn(now, p, getPath(old, p)), render, options) !== 'effect');
  return { differing, inert: inert.map(joinPath), renderedAlike };
}

// ------------------------------------------------------------------------------------------
// The keys the user sets and the layers without one of them

/** Leaves of the user's layers: scalars, lists (whole) and empty maps, each path once, in order. */
export function userLeaves(layers: readonly ValuesSource[]): PathSegment[][] {
  const seen = new Set<string>();
  const out: PathSegment[][] = [];
  const walk = (node: Values, prefix: PathSegment[]) => {
    for (const key of Object.keys(node)) {
      const path = [...prefix, key];
      const v = node[key];
      if (isPlainMap(v) && Object.keys(v).length > 0) walk(v, path);
      else {
        const id = joinPath(path);
        if (!seen.has(id)) {
          seen.add(id);
          out.push(path);
        }
      }
    }
  };
  for (const l of layers) walk(l.data, []);
  return out;
}

/**
 * The layer with `path` taken out (the rest kept): a file without the key; a layer that edits the
 * tree below (a flag, a Flux targetPath write) leaves it as it was there. The second holds even
 * when the layer's own data does not set the key: a targetPath write carries spec.values along
 * (Flux merges it in before the write), and the key is taken out of that copy too.
 */
function withoutKey(layer: ValuesSource, path: readonly PathSegment[]): ValuesSource {
  const sets = hasPath(layer.data, path);
  if (!sets && !layer.apply) return layer;
  const apply = layer.apply?.bind(layer);
  return {
    name: layer.name,
    data: sets ? (removeIn(layer.data, path) as Values) : layer.data,
    locate: (p) => layer.locate(p),
    ...(apply ? { apply: (below: Values) => restoreIn(apply(below), below, path) as Values } : {}),
  };
}

function removeIn(node: unknown, path: readonly PathSegment[]): unknown {
  if (!isPlainMap(node)) return node;
  const [head, ...rest] = path as [string, ...PathSegment[]];
  const copy: Values = { ...node };
  if (rest.length === 0) delete copy[head];
  else copy[head] = removeIn(copy[head], rest);
  return copy;
}

/** `after` with the value at `path` put back to what `below` holds there (taken out when it holds nothing). */
function restoreIn(after: unknown, below: unknown, path: readonly PathSegment[]): unknown {
  if (!isPlainMap(after)) return after;
  const [head, ...rest] = path as [string, ...PathSegment[]];
  const copy: Values = { ...after };
  const under = isPlainMap(below) && Object.hasOwn(below, head) ? below[head] : undefined;
  if (rest.length === 0) {
    if (under === undefined) delete copy[head];
    else copy[head] = under;
  } else copy[head] = restoreIn(copy[head], under, rest);
  return copy;
}

/** The one layer that sets `path`, when only one does. */
function onlyLayer(layers: readonly ValuesSource[], path: readonly PathSegment[]): ValuesSource | undefined {
  const setting = layers.filter((l) => hasPath(l.data, path));
  return setting.length === 1 ? setting[0] : undefined;
}

/** One path on the other or under it. */
function related(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

/**
 * What the release's values of the defaults alone hold at `path` (`getPath(layerRelease(defaults,
 * []).values, path)`) without making that tree: the defaults coalesced under nothing lose their
 * nulls, in every map reached through maps (coalesceValues, withoutNulls); a list is kept as it is.
 */
export function defaultAt(defaults: Values, path: readonly PathSegment[]): unknown {
  let cur: unknown = defaults;
  let stripped = true;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    if (Array.isArray(cur)) stripped = false;
    cur = (cur as Record<string, unknown>)[seg as string];
    if (stripped && cur === null) return undefined;
  }
  return stripped ? withoutNulls(cur) : cur;
}

/** `tree` with the value at `path` replaced (taken out when `value` is undefined); the maps along the path copied, the rest shared. */
function setIn(tree: unknown, path: readonly PathSegment[], value: unknown): Values {
  const [head, ...rest] = path as [string, ...PathSegment[]];
  const map: Values = isPlainMap(tree) ? tree : {};
  const next = rest.length === 0 ? value : setIn(map[head], rest, value);
  if (next === undefined) {
    // Copied without the key rather than deleted from a copy: V8 keeps a map a key was deleted from as a dictionary, slow to read.
    const { [head]: _gone, ...without } = map;
    return without;
  }
  const copy: Values = { ...map };
  setOwn(copy, head, next);
  return copy;
}

/** Where the latest layer that sets `path` wrote it. */
function writtenAt(layers: readonly ValuesSource[], path: readonly PathSegment[]) {
  for (let i = layers.length - 1; i >= 0; i--) if (hasPath(layers[i]!.data, path)) return layers[i]!.locate(path);
  return undefined;
}

/** The paths at which two trees differ: the deepest map key where they part, not below. */
function changedPaths(a: unknown, b: unknown, path: PathSegment[], out: PathSegment[][]): void {
  if (a === b) return;
  if (isPlainMap(a) && isPlainMap(b)) {
    for (const k of Object.keys(a)) changedPaths(a[k], Object.hasOwn(b, k) ? b[k] : undefined, [...path, k], out);
    for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) out.push([...path, k]);
    return;
  }
  if (!sameValue(a, b)) out.push(path);
}

/**
 * Whether the release holds at a key what the one file that sets it wrote there: the same value,
 * or nothing where the file wrote null (a null removes the key; one the release keeps as null is
 * `mine === null`, which the caller leaves to layerRelease).
 */
function asWritten(mine: unknown, written: unknown): boolean {
  return written === null ? mine === undefined : sameValue(mine, written);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isPlainMap(a) && isPlainMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

// ------------------------------------------------------------------------------------------
// The read record as a tree of path segments

interface ReadTree {
  /** Whether a path read lies on `path` or above it, or a path read or entered under it: the part read the key. */
  touches(path: readonly PathSegment[]): boolean;
  /** Whether `path` or a map above it went into an object as it is (printed whole). */
  printed(path: readonly PathSegment[]): boolean;
}

interface Node {
  read: boolean;
  kept: boolean;
  next: Map<string, Node>;
}

export function readTree(reads: PathReads): ReadTree {
  // The top-level keys under which anything was read, and whether the top was read or printed
  // whole, are found at once; the tree of the rest is made the first time a path under one of
  // them is asked about (most parts read nothing under most keys the user sets).
  const firsts = new Set<string>();
  let rootRead = false;
  let rootKept = false;
  for (const p of reads.whole) {
    const f = firstSegment(p);
    if (f === undefined) rootRead = true;
    else firsts.add(f);
  }
  for (const p of reads.entered) {
    const f = firstSegment(p);
    if (f !== undefined) firsts.add(f);
  }
  for (const p of reads.kept) {
    const f = firstSegment(p);
    if (f === undefined) rootKept = true;
    else firsts.add(f);
  }
  let root: Node | undefined;
  const tree = (): Node => (root ??= nodesOf(reads));
  return {
    touches(path) {
      if (rootRead || rootKept) return true;
      if (path.length === 0) return true;
      if (!firsts.has(String(path[0]))) return false;
      let n = tree();
      for (const seg of path) {
        const next = n.next.get(String(seg));
        if (!next) return false;
        if (next.read || next.kept) return true;
        n = next;
      }
      return true;
    },
    printed(path) {
      if (rootKept) return true;
      if (path.length === 0 || !firsts.has(String(path[0]))) return false;
      let n: Node | undefined = tree();
      for (const seg of path) {
        n = n.next.get(String(seg));
        if (!n) return false;
        if (n.kept) return true;
      }
      return false;
    },
  };
}

/** The first segment of a recorded path (splitPath's), undefined when it has none (the top). */
function firstSegment(p: string): string | undefined {
  if (p.includes('\\') || p.includes('[')) {
    const segs = splitPath(p);
    return segs.length > 0 ? String(segs[0]) : undefined;
  }
  for (let start = 0; ; ) {
    const dot = p.indexOf('.', start);
    const end = dot < 0 ? p.length : dot;
    if (end > start) return p.slice(start, end);
    if (dot < 0) return undefined;
    start = dot + 1;
  }
}

function nodesOf(reads: PathReads): Node {
  const root: Node = { read: false, kept: false, next: new Map() };
  const add = (p: string, mark: 'read' | 'kept' | undefined) => {
    let n = root;
    if (p !== '') {
      for (const seg of splitPath(p)) {
        const key = String(seg);
        let next = n.next.get(key);
        if (!next) n.next.set(key, (next = { read: false, kept: false, next: new Map() }));
        n = next;
      }
    }
    if (mark) n[mark] = true;
  };
  for (const p of reads.whole) add(p, 'read');
  for (const p of reads.entered) add(p, undefined);
  for (const p of reads.kept) add(p, 'kept');
  return root;
}

// ------------------------------------------------------------------------------------------
// Rendering without a key

/**
 * Whether `values` render as the recorded render did. Only the parts that read a changed path can
 * differ: those render again (with the context, which is built anew), unless the context itself
 * read one, when every part renders again on a context built anew. Parts are compared one at a
 * time, each with what it made in the recorded render, and the first that differs ends it; template
 * runs given the data they had are reused either way.
 */
function rendersAlike(values: Values, render: RenderWithReads, options: ChartRenderOptions, touched: ReadonlySet<string>): boolean {
  // The context read none of the changed paths (else every part renders again): its recorded build serves.
  const contextRead = touched.has('context');
  const ids = contextRead ? new Set(['context', ...[...render.made.keys()].filter((id) => partOf(id) === id)]) : touched;
  try {
    for (const part of renderSomeParts(values, options, ids, render.reuse, !contextRead)) {
      if (!partAlike(part, render.made.get(part.id) ?? [])) return false;
    }
    return true;
  } catch {
    return false; // the chart does not render without it: the key has an effect
  }
}

/**
 * Whether a part (or piece) made again prints what it made in the recorded render. The render
 * orders all objects by kind, source, namespace and name before the order they were made in, so
 * a part that makes the same objects in another order renders alike: compared in that order when
 * they are not alike as made.
 */
export function partAlike(part: PartMade, before: readonly RenderedDoc[]): boolean {
  if (part.made.length !== before.length) return false;
  let i = 0;
  for (; i < before.length; i++) if (!sameDoc(part.printed(part.made[i]!), before[i]!)) break;
  if (i === before.length) return true;
  return before.length > 1 && sameDocs(orderDocs(part.made.map((d) => part.printed(d))), orderDocs(before));
}

const sameDoc = (x: RenderedDoc, y: RenderedDoc) => x === y || (x.source === y.source && emittedAlike(x.object, y.object));

/**
 * The same objects from the same sources, printed alike (`render` prints each with docYaml, whose
 * text of an object is emitYaml's; the CRDs' prepared texts are emitYaml's too, written by the build).
 */
function sameDocs(a: readonly RenderedDoc[], b: readonly RenderedDoc[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameDoc(a[i]!, b[i]!)) return false;
  return true;
}

// ------------------------------------------------------------------------------------------
// Reasons

const SWITCHES = ['enabled', 'create'];

/**
 * Why the key changes nothing: the nearest switch beside its branch that is off
 * (`authproxy.enabled` is false), a setting beside it that names another branch
 * (`providers.default` is providerA), a finding of another rule on a setting beside it (the
 * ServiceMonitor whose API was not declared); else, when the render did not read it, that nothing
 * of this configuration reads it, or, when it did, that another setting decides in its place.
 */
function whyInert(values: Values, reported: readonly Problem[], path: readonly PathSegment[], read: boolean): string {
  for (let depth = path.length - 1; depth >= 1; depth--) {
    const parent = path.slice(0, depth);
    const branch = String(path[depth]);
    const block = getPath(values, parent);
    if (!isPlainMap(block)) continue;
    const what = depth === path.length - 1 ? 'it' : `\`${joinPath(path.slice(0, depth + 1))}\``;
    for (const k of SWITCHES) {
      if (k !== branch && Object.hasOwn(block, k) && (block[k] === false || block[k] === null)) {
        return `\`${joinPath([...parent, k])}\` is ${String(block[k])}, so nothing renders from ${what}`;
      }
    }
    for (const [k, v] of Object.entries(block)) {
      if (k !== branch && typeof v === 'string' && v !== branch && isPlainMap(block[v]) && isPlainMap(block[branch])) {
        return `\`${joinPath([...parent, k])}\` is ${v}, so \`${joinPath([...parent, v])}\` renders and \`${joinPath([...parent, branch])}\` does not`;
      }
    }
    const beside = reported.find((p) => p.severity !== 'info' && p.path !== joinPath(path) && samePrefix(splitPath(p.path), parent));
    if (beside) return `\`${beside.path}\` renders nothing here (${beside.rule}), and ${what} belongs to it`;
  }
  return read ? `the chart reads it, but another setting decides what renders in its place` : 'no object this configuration renders reads it';
}

function samePrefix(path: readonly PathSegment[], parent: readonly PathSegment[]): boolean {
  return path.length === parent.length + 1 && parent.every((seg, i) => String(seg) === String(path[i]));
}

function sameWhy(req: EffectRequest): string {
  return `the chart's default (revision ${req.revision}) is the same`;
}

// ------------------------------------------------------------------------------------------
// One key in the user's configuration (`explain KEY -f … --set …`)

/** What the read record of a render of the user's values says of one key. */
export interface KeyInConfiguration {
  /** The parts of the render that read the key (a component's id; `context`: the render context, which every object rests on). */
  readBy: string[];
  /** The objects those parts made, as `render` prints them. */
  objects: RenderedDoc[];
  /** Why nothing reads it, when nothing does: the switch that keeps its reader off, or that no object of this configuration reads it. */
  unreadBecause?: string;
  /** The key or keys under it that the layers set, each with lint's verdict (values/no-effect, values/same-as-default). */
  set: { key: string; verdict: Verdict }[];
  /** When the layers set it: the render without it (the layers keeping the rest), to compare with `docs`. */
  without?: RenderedDoc[];
  docs: RenderedDoc[];
}

/** The key `key` (dotted) in the render of `layered` (made from `layers`): who reads it, what it feeds, and lint's verdict on what the layers set of it. */
export function keyInConfiguration(revision: Revision, layers: readonly ValuesSource[], layered: LayeredValues, options: ChartRenderOptions, reported: readonly Problem[], key: string): KeyInConfiguration {
  const path = splitPath(key);
  const render = renderChartWithReads(layered.values, options);
  // A piece of a part (`authproxy#deployment.yaml`) is named by its part; its objects are the piece's alone.
  const readers = readersOf(render).filter((r) => r.tree.touches(path));
  const readBy = [...new Set(readers.map((r) => partOf(r.id)))];
  const objects = readBy.includes('context') ? render.docs : [...new Set(readers.flatMap((r) => render.made.get(r.id) ?? []))];
  const mine = userLeaves(layers).filter((p) => related(p, path) && p.length >= path.length);
  const set = judgeUserKeys({ revision, layers, layered, render, options, reported }, mine).map(({ path: p, verdict }) => ({ key: joinPath(p), verdict }));
  let without: RenderedDoc[] | undefined;
  if (mine.length > 0) {
    const trimmed = layers.map((l) => mine.reduce((acc, p) => withoutKey(acc, p), l));
    try {
      without = renderChart(layerRelease(defaultsSource(revision), trimmed).values, options);
    } catch {
      without = undefined;
    }
  }
  return {
    readBy,
    objects,
    ...(readBy.length === 0 ? { unreadBecause: whyInert(layered.values, reported, path, false) } : {}),
    set,
    ...(without ? { without } : {}),
    docs: render.docs,
  };
}
