// The render pipeline: linted values → render context → CRDs, the chart's own components,
// the sub-charts → one ordered, duplicate-free list of objects. Pure: no I/O, no clock.

import { chartCrdDocs, mcpopCrdDocs } from '../crds/index.ts';
import type { Values } from '../values/merge.ts';
import type { PathSegment } from '../values/source.ts';
import { buildRenderContext, type Component, type Piece, type RenderContext, type RenderOptions } from '../model/context.ts';
import type { RenderedDoc } from '../model/objects.ts';
import { withTemplateRuns } from './engine.ts';
import { assertUnique, orderDocs } from './order.ts';
import { storedForms } from './server-form.ts';
import { SUBCHART_COMPONENTS } from './subcharts/index.ts';
import { controllerComponent } from './components/controller.ts';
import { rbacComponent } from './components/rbac.ts';
import { metricsComponent } from './components/metrics.ts';
import { pdbComponent } from './components/pdb.ts';
import { uiComponent } from './components/ui.ts';
import { routesComponent } from './components/routes.ts';
import { databaseComponent } from './components/database.ts';
import { providersComponent } from './components/providers.ts';
import { platformComponent } from './components/platform.ts';
import { substrateComponent } from './components/substrate.ts';
import { extraObjectsComponent } from './components/extra-objects.ts';
import { bool, recordingView, switchableValues, withoutView, type PathReads } from '../model/values-access.ts';

/** The chart's own components, in the order their objects are produced (output order is install order). */
export const CHART_COMPONENTS: readonly Component[] = [
  controllerComponent,
  rbacComponent,
  metricsComponent,
  pdbComponent,
  uiComponent,
  routesComponent,
  databaseComponent,
  providersComponent,
  platformComponent,
  substrateComponent,
  extraObjectsComponent,
];

export interface ChartRenderOptions extends RenderOptions {
  /** Leave out CustomResourceDefinitions (`--skip-crds`). */
  skipCrds?: boolean;
}

/** CRDs of the chart, then the mcpop sub-chart's when it is enabled. */
export function crdDocs(ctx: RenderContext): RenderedDoc[] {
  return [...chartCrdDocs(), ...(bool(ctx.values, 'mcpop.enabled', true) ? mcpopCrdDocs() : [])];
}

/** Renders the release's values (lintValues' `layered.values`: src/values/replace.ts made them). */
export function renderChart(values: Values, opts: ChartRenderOptions): RenderedDoc[] {
  return renderParts(values, opts);
}

/** A render and what it read of the values (model/values-access.ts, recordingView). */
export interface RenderWithReads {
  docs: RenderedDoc[];
  /**
   * The values paths read, by the part of the render that read them: `context` (the render
   * context and the revision model, which every object rests on), `crds`, each component's id,
   * and for a component made in pieces (Component.pieces), each piece's `<id>#<piece>` (the
   * component's own id then holds what it decides for all its pieces).
   */
  reads: ReadonlyMap<string, PathReads>;
  /** The objects each part (and each piece) made, in the order it made them (before the render orders them all), as render prints them. */
  made: ReadonlyMap<string, readonly RenderedDoc[]>;
  /** What renderSomeParts may reuse of this render: its template runs, and each object's printed form. */
  reuse: RenderReuse;
  /**
   * When set, `reads` holds only the paths on the way to one of these, at one or under one
   * (recordingView's `interest`): what the record says of any other path is not known.
   */
  interest?: readonly (readonly PathSegment[])[];
}

/** One template run: what it was given and the documents it made. */
interface TemplateRun {
  source: string;
  template: string;
  data: unknown;
  docs: readonly RenderedDoc[];
}

/** A piece as the recorded render made it (Component.pieces). */
export interface RecordedPiece {
  name: string;
  source: string;
  /** How many objects it made. */
  made: number;
  /** How many values paths it read: the pieces that read least, the cheapest, are made first when all are made again. */
  reads: number;
}

/** Of a recorded render: each part's template runs by source and template, in order; each object made and its printed form; its context. */
export interface RenderReuse {
  readonly runs: ReadonlyMap<string, ReadonlyMap<string, readonly TemplateRun[]>>;
  readonly stored: ReadonlyMap<RenderedDoc, RenderedDoc>;
  /** The pieces of each part made in pieces, in the order they were made. */
  readonly pieces: ReadonlyMap<string, readonly RecordedPiece[]>;
  /**
   * A render context for `values` that differ from the recorded render's only at paths the
   * context did not read (so what the context computed at once is the same): built once over
   * switchable values (model/values-access.ts, switchableValues), set to `values` here, so that
   * what the context reads later reads them. Undefined for options other than the recorded render's.
   */
  context(values: Values, opts: ChartRenderOptions): RenderContext | undefined;
  /**
   * The pieces of the part `part` (`make`: Component.pieces), made once over that context, for
   * `values` that differ from the recorded render's only at paths neither the context nor the
   * part itself read (what the part decides for all its pieces, its shared part, is then the
   * same): the values are set to `values` as for context(), and a piece reads them when it is
   * made, through the stand-ins of the maps the shared part kept. Undefined when context() is.
   */
  partPieces(part: string, make: (ctx: RenderContext) => readonly Piece[], values: Values, opts: ChartRenderOptions): readonly Piece[] | undefined;
}

const runKey = (source: string, template: string) => `${source}\u0000${template}`;

/** One part of a render: the CRDs, or a component (which may make its objects in pieces). */
interface Part {
  id: string;
  make(ctx: RenderContext): RenderedDoc[];
  pieces?(ctx: RenderContext): readonly Piece[];
}

/** The parts of a render, in the order they run: the CRDs, the chart's components, the sub-charts'. */
function parts(opts: ChartRenderOptions): readonly Part[] {
  return (PARTS[opts.skipCrds ? 1 : 0] ??= makeParts(opts.skipCrds === true));
}

/** The two lists parts() gives (with the CRDs, without), made once: values/no-effect asks for them once per key. */
const PARTS: (readonly Part[] | undefined)[] = [undefined, undefined];

function makeParts(skipCrds: boolean): readonly Part[] {
  const component = (c: Component): Part => ({ id: c.id, make: (ctx) => c.render(ctx), ...(c.pieces ? { pieces: (ctx: RenderContext) => c.pieces!(ctx) } : {}) });
  return [...(skipCrds ? [] : [{ id: 'crds', make: crdDocs }]), ...CHART_COMPONENTS.map(component), ...SUBCHART_COMPONENTS.map(component)];
}

/** The id under which a render records the reads and objects of one piece of a part (Component.pieces). */
export const pieceId = (part: string, piece: string) => `${part}#${piece}`;

/** The part a read record's owner belongs to: the part itself, or the part of a piece. */
export const partOf = (owner: string) => {
  const i = owner.indexOf('#');
  return i < 0 ? owner : owner.slice(0, i);
};

/**
 * renderChart, with the values read through a recording view: the same render (the one function
 * below), and which values paths each part read, so which paths each object was computed from:
 * its part's and the context's. With `interest`, only the paths related to those (on the way to
 * one, at one or under one) are recorded, and the maps of the others are read as they are.
 */
export function renderChartWithReads(values: Values, opts: ChartRenderOptions, interest?: readonly (readonly PathSegment[])[]): RenderWithReads {
  const recorder = recordingView(values, interest);
  const made = new Map<string, RenderedDoc[]>();
  const runs = new Map<string, Map<string, TemplateRun[]>>();
  const storedOf = new Map<RenderedDoc, RenderedDoc>();
  const pieceLists = new Map<string, Piece[]>();
  let partRuns = new Map<string, TemplateRun[]>();
  // What a template made is read from its printed lines (fresh data, no view of the values in it).
  const templated = new WeakSet<object>();
  const watch = {
    run(source: string, template: string, data: unknown, make: () => RenderedDoc[]) {
      const docs = make();
      for (const d of docs) templated.add(d.object);
      const key = runKey(source, template);
      let list = partRuns.get(key);
      if (!list) partRuns.set(key, (list = []));
      list.push({ source, template, data, docs: [...docs] });
      return docs;
    },
  };
  const docs = withTemplateRuns(watch, () =>
    renderParts(recorder.view, opts, {
      start(id) {
        recorder.owner(id);
        runs.set(id, (partRuns = new Map()));
      },
      pieces(id, list) {
        pieceLists.set(id, [...list]);
      },
      made(id, raw, stored, ofPieces) {
        made.set(id, stored);
        if (ofPieces) return; // each piece was heard of as it was made
        raw.forEach((d, i) => storedOf.set(d, stored[i]!));
        // A map of the values put into an object as it is gets printed whole with the object.
        if (id !== 'crds') for (const d of raw) if (!templated.has(d.object)) recorder.kept(d.object);
      },
    }),
  );
  // The objects may hold views of the values' maps: what reads them from here on is not the render.
  recorder.owner(undefined);
  const size = (id: string) => {
    const r = recorder.reads.get(id);
    return r ? r.whole.size + r.entered.size + r.kept.size : 0;
  };
  const pieces = new Map<string, RecordedPiece[]>();
  for (const [part, list] of pieceLists) {
    pieces.set(
      part,
      list.map((x) => ({ name: x.name, source: x.source, made: made.get(pieceId(part, x.name))?.length ?? 0, reads: size(pieceId(part, x.name)) })),
    );
  }
  let shared: { ctx: RenderContext; values: ReturnType<typeof switchableValues> } | undefined;
  const context = (next: Values, o: ChartRenderOptions) => {
    if (!sameOptions(o, opts)) return undefined;
    if (!shared) {
      const switchable = switchableValues(values);
      shared = { ctx: switchable.keeping(() => buildRenderContext(switchable.view, opts)), values: switchable };
    }
    shared.values.set(next);
    return shared.ctx;
  };
  const kept = new Map<string, readonly Piece[]>();
  const partPieces = (part: string, make: (ctx: RenderContext) => readonly Piece[], next: Values, o: ChartRenderOptions) => {
    const ctx = context(next, o);
    if (!ctx) return undefined;
    let list = kept.get(part);
    if (!list) {
      // Made over the recorded values: what the shared part reads is what it read in this render.
      shared!.values.set(values);
      try {
        list = shared!.values.keeping(() => make(ctx));
        checkSources(part, list);
      } finally {
        shared!.values.set(next);
      }
      kept.set(part, list);
    }
    return list;
  };
  return { docs, reads: recorder.reads, made, reuse: { runs, stored: storedOf, pieces, context, partPieces }, ...(interest ? { interest } : {}) };
}

/** Options that build the same render context and run the same parts. */
function sameOptions(a: ChartRenderOptions, b: ChartRenderOptions): boolean {
  if (a === b) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof ChartRenderOptions)[]);
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (Array.isArray(x) && Array.isArray(y) ? x.length !== y.length || x.some((v, i) => v !== y[i]) : x !== y) return false;
  }
  return true;
}

/** What one part made in a render of some parts again (renderSomeParts). */
export interface PartMade {
  id: string;
  /** The objects as the part made them. */
  made: readonly RenderedDoc[];
  /** An object of `made` as render prints it (./server-form.ts): computed when asked, the recorded one when the run was reused. */
  printed(doc: RenderedDoc): RenderedDoc;
}

/**
 * What the parts `ids` make of `values` (the context built anew unless `contextUnread`), one part at a time as the
 * caller asks, those quickest to tell apart first: for a render that differs from a recorded one only
 * in values the other parts and the context did not read, these are the only objects that can
 * differ, and a caller that finds a difference need not render the other parts.
 */
export function* renderSomeParts(values: Values, opts: ChartRenderOptions, ids: ReadonlySet<string>, reuse?: RenderReuse, contextUnread = false): Generator<PartMade> {
  // When the caller knows the context read nothing of what changed (`contextUnread`), the recorded
  // render's context serves, set to these values before each part runs; else it is built anew.
  const shared = contextUnread && !ids.has('context') ? reuse?.context(values, opts) : undefined;
  const ctx = shared ?? buildRenderContext(values, opts);
  const reached = new Set<string>();
  for (const id of ids) reached.add(partOf(id));
  const chosen = parts(opts).filter((p) => reached.has(p.id) && (ids.has(p.id) || p.pieces !== undefined));
  const printed = (d: RenderedDoc) => reuse?.stored.get(d) ?? storedForms([d])[0]!;
  // The cheapest to tell apart first: the CRDs (prepared objects, the same ones when alike, a list
  // of another length when the change turns a set of them on or off), then the parts made in
  // pieces that read a changed path themselves (a recorded piece that is gone is a difference
  // before anything is made), then the others. The order decides only how soon a difference ends it.
  const first = (c: Part) => (c.id === 'crds' ? 0 : c.pieces && ids.has(c.id) ? 1 : 2);
  for (const p of [...chosen].sort((a, b) => first(a) - first(b))) {
    if (shared) reuse!.context(values, opts);
    if (!p.pieces) {
      yield { id: p.id, made: withReuse(reuse?.runs.get(p.id), () => p.make(ctx)), printed };
      continue;
    }
    // What the part decides for all its pieces is made again; of the pieces, all when the part
    // itself read a changed path, else only those that did (the others make what they made).
    const whole = ids.has(p.id);
    // The shared part read nothing that changed: the one made over the recorded context serves.
    const keptPieces = shared && !whole ? reuse!.partPieces(p.id, p.pieces, values, opts) : undefined;
    const pieces = keptPieces ?? p.pieces(ctx);
    if (!keptPieces) checkSources(p.id, pieces);
    const recorded = whole ? reuse?.pieces.get(p.id) : undefined;
    if (recorded && bySource(recorded, pieces)) {
      yield* pieceByPiece(p.id, pieces, recorded, reuse!, printed, ids);
      continue;
    }
    const made: RenderedDoc[] = [];
    for (const piece of pieces) {
      const id = pieceId(p.id, piece.name);
      if (!whole && !ids.has(id)) continue;
      const docs = withReuse(reuse?.runs.get(id), () => madeBy(p.id, piece));
      if (whole) made.push(...docs);
      else yield { id, made: docs, printed };
    }
    if (whole) yield { id: p.id, made, printed };
    // A piece that read a changed path and is gone (it cannot be, when the part read none of them).
    else for (const id of ids) if (partOf(id) === p.id && id !== p.id && !pieces.some((x) => pieceId(p.id, x.name) === id)) yield { id, made: [], printed };
  }
}

/** A part's pieces declare distinct sources (Piece.source). */
function checkSources(part: string, pieces: readonly Piece[]): void {
  const seen = new Set<string>();
  for (const x of pieces) {
    if (seen.has(x.source)) throw new Error(`bug: two pieces of ${part} make objects of ${x.source}`);
    seen.add(x.source);
  }
}

/** What `piece` makes, each object of the source it declares (Piece.source). */
function madeBy(part: string, piece: Piece): RenderedDoc[] {
  const docs = piece.make();
  for (const d of docs) if (d.source !== piece.source) throw new Error(`bug: the piece ${pieceId(part, piece.name)} made an object of ${d.source}, not of ${piece.source}`);
  return docs;
}

/**
 * Whether the pieces made now and those recorded name each source by one piece name: a piece of
 * either list with a name of the other has the same source, and a source of one list is no other
 * name's in the other. Then the objects of each source are one piece's in both renders.
 */
function bySource(recorded: readonly RecordedPiece[], now: readonly Piece[]): boolean {
  const sourceOf = new Map(recorded.map((r) => [r.name, r.source]));
  const nameOf = new Map(recorded.map((r) => [r.source, r.name]));
  return now.every((x) => (sourceOf.has(x.name) ? sourceOf.get(x.name) === x.source : !nameOf.has(x.source)));
}

/**
 * A part the changed values reach as a whole, compared piece by piece (the caller compares each
 * piece's objects with the recorded piece's, and stops at the first that differs): the objects of
 * one source are one piece's in both renders (bySource, Piece.source), and the render orders
 * objects by source before the order they were made in, so the part renders alike exactly when
 * every piece does. A recorded piece that made objects and is gone comes first (nothing need be
 * made to see it differ), then the pieces new to this render, then those that read a changed
 * path themselves, then the others, those that read fewest values first in each group.
 */
function* pieceByPiece(part: string, pieces: readonly Piece[], recorded: readonly RecordedPiece[], reuse: RenderReuse, printed: (d: RenderedDoc) => RenderedDoc, ids: ReadonlySet<string>): Generator<PartMade> {
  const now = new Set(pieces.map((x) => x.name));
  for (const r of recorded) if (r.made > 0 && !now.has(r.name)) yield { id: pieceId(part, r.name), made: [], printed };
  // New pieces first (-1), then those that read a changed path themselves, the likeliest to
  // differ, then the others; each group those that read fewest values first.
  const reads = new Map(recorded.map((r) => [r.name, r.reads]));
  const rank = new Map(pieces.map((x) => [x, reads.has(x.name) ? (ids.has(pieceId(part, x.name)) ? 0 : 1) : -1]));
  const order = [...pieces].sort((a, b) => rank.get(a)! - rank.get(b)! || (reads.get(a.name) ?? -1) - (reads.get(b.name) ?? -1));
  for (const piece of order) {
    const id = pieceId(part, piece.name);
    yield { id, made: withReuse(reuse.runs.get(id), () => madeBy(part, piece)), printed };
  }
}

/**
 * `make`, with each template run given the data it had in the recorded run (`recorded`, in order
 * by source and template) answered with the documents it made then: the same objects, so compared
 * at no cost; any other template runs.
 */
function withReuse(recorded: ReadonlyMap<string, readonly TemplateRun[]> | undefined, make: () => RenderedDoc[]): RenderedDoc[] {
  if (!recorded) return make();
  const seen = new Map<string, number>();
  const watch = {
    run(source: string, template: string, data: unknown, run: () => RenderedDoc[]) {
      const key = runKey(source, template);
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      const before = recorded.get(key)?.[n];
      return before && sameData(before.data, data) ? [...before.docs] : run();
    },
  };
  return withTemplateRuns(watch, make);
}

/**
 * Equal data, maps with their keys in the same order (a template may list a map's keys); false
 * for anything else than plain maps, lists and equal primitives, so a run is reused only when its
 * data is surely the same.
 */
function sameData(recorded: unknown, b: unknown): boolean {
  // The recorded run was given views of the values' maps; the maps a render without one key
  // shares with the first are the same objects.
  const a = withoutView(recorded);
  if (a === b) return true;
  // Loops rather than every(): this runs for each template run of each key, mostly before V8
  // has optimized anything.
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (plainObject(a) && plainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (let i = 0; i < ka.length; i++) {
      const k = ka[i]!;
      if (k !== kb[i] || !sameData(a[k], b[k])) return false;
    }
    return true;
  }
  return false;
}

function plainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** What renderChartWithReads hears of a render: each part or piece before it runs, and what it made. */
interface PartHooks {
  /** `id` (a part, or a piece `<part>#<name>`, after its part) is about to run. */
  start(id: string): void;
  /** The pieces of the part `id`, before they run. */
  pieces(id: string, pieces: readonly Piece[]): void;
  /** What `id` made, as made and as printed; `ofPieces`: a part made in pieces, each heard of already. */
  made(id: string, raw: RenderedDoc[], stored: RenderedDoc[], ofPieces: boolean): void;
}

/**
 * The render; `hooks` hear of each part before it runs and of what it made. A part made in pieces
 * then runs piece by piece (the same objects in the same order as its render makes them).
 */
function renderParts(values: Values, opts: ChartRenderOptions, hooks?: PartHooks): RenderedDoc[] {
  const ctx = buildRenderContext(values, opts);
  const docs: RenderedDoc[] = [];
  for (const p of parts(opts)) {
    hooks?.start(p.id);
    if (hooks && p.pieces) {
      const raw: RenderedDoc[] = [];
      const stored: RenderedDoc[] = [];
      const pieces = p.pieces(ctx);
      checkSources(p.id, pieces);
      hooks.pieces(p.id, pieces);
      for (const piece of pieces) {
        const id = pieceId(p.id, piece.name);
        hooks.start(id);
        const r = madeBy(p.id, piece);
        const s = storedForms(r);
        hooks.made(id, r, s, false);
        raw.push(...r);
        stored.push(...s);
      }
      hooks.made(p.id, raw, stored, true);
      docs.push(...stored);
      continue;
    }
    const raw = p.make(ctx);
    // Written as the API server stores each object, so that any field manager can apply it (./server-form.ts).
    const stored = storedForms(raw);
    hooks?.made(p.id, raw, stored, false);
    docs.push(...stored);
  }
  const ordered = orderDocs(docs);
  assertUnique(ordered);
  return ordered;
}
