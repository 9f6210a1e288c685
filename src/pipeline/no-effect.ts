// `values/no-effect` and `values/same-as-default` (issue 35): every key the user sets either
// changes what is rendered or is reported, at the line that sets it, with the reason.
//
// The definition: a key the user sets (a leaf of a values file or of a --set flag: a scalar, a
// list, an empty map) has no effect when removing it from the user's layers, keeping the rest,
// leaves the rendered output byte-identical. Each key is decided by the cheapest of three ways:
//   1. the layers without it give the same merged values: it repeats what the layers below it
//      (the defaults, or an earlier file) give (`values/same-as-default`, a note);
//   2. the values change only at paths the render never read (the read record of
//      render/render.ts, renderChartWithReads): nothing in this configuration reads the key, and
//      the reason names the switch that keeps its reader off when one is found;
//   3. else the chart renders again without it (the same renderChart, in-process) and the two
//      outputs are compared.
// (1) and (2) need no render: a render is a function of the values it reads, and a run that reads
// the same values at the same paths reads nothing else. Keys another rule already reports on
// (values/authproxy-no-effect, security/authproxy-email-widened, …) are not reported twice.

import type { Problem } from '../problems/problem.ts';
import type { RenderedDoc } from '../model/objects.ts';
import { docYaml } from '../output/manifests.ts';
import { renderChart, type ChartRenderOptions, type RenderWithReads } from '../render/render.ts';
import type { Revision } from '../spec/revisions.ts';
import { defaultsSource } from '../values/defaults.ts';
import { getPath, isPlainMap, joinPath, splitPath, type LayeredValues, type Values } from '../values/merge.ts';
import { layerRelease } from '../values/replace.ts';
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
}

/** How a key the user sets was decided (tests hold each verdict to a render without the key). */
export type Verdict = { effect: true } | { effect: false; rule: typeof NO_EFFECT_RULE | typeof SAME_AS_DEFAULT_RULE; why: string; rendered: boolean };

/** Every leaf the user's layers set, each once, with the verdict on it. */
export function judgeUserKeys(req: EffectRequest): { path: PathSegment[]; verdict: Verdict }[] {
  const reads = readTree(req.render.reads);
  const defaults = defaultsSource(req.revision);
  let fullText: string[] | undefined;
  const out: { path: PathSegment[]; verdict: Verdict }[] = [];
  for (const path of userLeaves(req.layers)) {
    const without = layerRelease(defaults, req.layers.map((l) => withoutKey(l, path))).values;
    const changed: PathSegment[][] = [];
    changedPaths(req.layered.values, without, [], changed);
    if (changed.length === 0) {
      out.push({ path, verdict: { effect: false, rule: SAME_AS_DEFAULT_RULE, why: sameWhy(req), rendered: false } });
      continue;
    }
    if (!changed.some((c) => reads.touches(c))) {
      out.push({ path, verdict: { effect: false, rule: NO_EFFECT_RULE, why: whyInert(req.layered.values, req.reported, path, false), rendered: false } });
      continue;
    }
    fullText ??= req.render.docs.map(docYaml);
    if (rendersAlike(without, req.options, req.render.docs, fullText)) {
      out.push({ path, verdict: { effect: false, rule: NO_EFFECT_RULE, why: whyInert(req.layered.values, req.reported, path, true), rendered: true } });
    } else out.push({ path, verdict: { effect: true } });
  }
  return out;
}

/** The findings: a warning (no-effect) or a note (same-as-default) at the line that sets each inert key. */
export function noEffectProblems(req: EffectRequest): Problem[] {
  const problems: Problem[] = [];
  const named = req.reported.filter((p) => p.severity !== 'info' && p.path !== '').map((p) => splitPath(p.path));
  for (const { path, verdict } of judgeUserKeys(req)) {
    if (verdict.effect) continue;
    if (named.some((n) => n.length <= path.length && n.every((seg, i) => String(seg) === String(path[i])))) continue;
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

/** The layer with `path` taken out (the rest kept): a file without the key; a flag that leaves the tree below as it was there. */
function withoutKey(layer: ValuesSource, path: readonly PathSegment[]): ValuesSource {
  if (!hasPath(layer.data, path)) return layer;
  const apply = layer.apply?.bind(layer);
  return {
    name: layer.name,
    data: removeIn(layer.data, path) as Values,
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
  /** Whether a path read lies on `path` or under it, or `path` under one: the render read the key. */
  touches(path: readonly PathSegment[]): boolean;
}

interface Node {
  read: boolean;
  next: Map<string, Node>;
}

export function readTree(reads: ReadonlyMap<string, ReadonlySet<string>>): ReadTree {
  const root: Node = { read: false, next: new Map() };
  for (const set of reads.values()) {
    for (const p of set) {
      if (p === '') {
        root.read = true;
        continue;
      }
      let n = root;
      for (const seg of splitPath(p)) {
        const key = String(seg);
        let next = n.next.get(key);
        if (!next) n.next.set(key, (next = { read: false, next: new Map() }));
        n = next;
      }
      n.read = true;
    }
  }
  return {
    touches(path) {
      let n = root;
      if (n.read) return true;
      for (const seg of path) {
        const next = n.next.get(String(seg));
        if (!next) return false;
        if (next.read) return true;
        n = next;
      }
      return true;
    },
  };
}

// ------------------------------------------------------------------------------------------
// Rendering without a key

function rendersAlike(values: Values, options: ChartRenderOptions, docs: readonly RenderedDoc[], texts: readonly string[]): boolean {
  let other: RenderedDoc[];
  try {
    other = renderChart(values, options);
  } catch {
    return false; // the chart does not render without it: the key has an effect
  }
  if (other.length !== docs.length) return false;
  for (let i = 0; i < docs.length; i++) {
    const d = other[i]!;
    if (d.source !== docs[i]!.source) return false;
    if (d.object !== docs[i]!.object && docYaml(d) !== texts[i]) return false;
  }
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
