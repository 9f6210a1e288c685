// The render pipeline: linted values → render context → CRDs, the chart's own components,
// the sub-charts → one ordered, duplicate-free list of objects. Pure: no I/O, no clock.

import { chartCrdDocs, mcpopCrdDocs } from '../crds/index.ts';
import type { Values } from '../values/merge.ts';
import { buildRenderContext, type Component, type RenderContext, type RenderOptions } from '../model/context.ts';
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
import { bool, recordingView, withoutView, type PathReads } from '../model/values-access.ts';

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
   * context and the revision model, which every object rests on), `crds`, and each component's id.
   */
  reads: ReadonlyMap<string, PathReads>;
  /** The objects each part made, in the order it made them (before the render orders them all), as render prints them. */
  made: ReadonlyMap<string, readonly RenderedDoc[]>;
  /** What renderSomeParts may reuse of this render: its template runs, and each object's printed form. */
  reuse: RenderReuse;
}

/** One template run: what it was given and the documents it made. */
interface TemplateRun {
  source: string;
  template: string;
  data: unknown;
  docs: readonly RenderedDoc[];
}

/** Of a recorded render: each part's template runs by source and template, in order; each object made and its printed form. */
export interface RenderReuse {
  readonly runs: ReadonlyMap<string, ReadonlyMap<string, readonly TemplateRun[]>>;
  readonly stored: ReadonlyMap<RenderedDoc, RenderedDoc>;
}

const runKey = (source: string, template: string) => `${source}\u0000${template}`;

/** The parts of a render, in the order they run: the CRDs, the chart's components, the sub-charts'. */
function parts(opts: ChartRenderOptions): { id: string; make(ctx: RenderContext): RenderedDoc[] }[] {
  return [...(opts.skipCrds ? [] : [{ id: 'crds', make: crdDocs }]), ...CHART_COMPONENTS.map((c) => ({ id: c.id, make: (ctx: RenderContext) => c.render(ctx) })), ...SUBCHART_COMPONENTS.map((c) => ({ id: c.id, make: (ctx: RenderContext) => c.render(ctx) }))];
}

/**
 * renderChart, with the values read through a recording view: the same render (the one function
 * below), and which values paths each part read, so which paths each object was computed from:
 * its part's and the context's.
 */
export function renderChartWithReads(values: Values, opts: ChartRenderOptions): RenderWithReads {
  const recorder = recordingView(values);
  const made = new Map<string, RenderedDoc[]>();
  const runs = new Map<string, Map<string, TemplateRun[]>>();
  const storedOf = new Map<RenderedDoc, RenderedDoc>();
  let partRuns = new Map<string, TemplateRun[]>();
  const watch = {
    run(source: string, template: string, data: unknown, make: () => RenderedDoc[]) {
      const docs = make();
      const key = runKey(source, template);
      let list = partRuns.get(key);
      if (!list) partRuns.set(key, (list = []));
      list.push({ source, template, data, docs: [...docs] });
      return docs;
    },
  };
  const docs = withTemplateRuns(watch, () =>
    renderParts(recorder.view, opts, (id, raw, stored) => {
      if (raw && stored) {
        made.set(id, stored);
        raw.forEach((d, i) => storedOf.set(d, stored[i]!));
        // A map of the values put into an object as it is gets printed whole with the object.
        if (id !== 'crds') for (const d of raw) recorder.kept(d.object);
      } else {
        recorder.owner(id);
        runs.set(id, (partRuns = new Map()));
      }
    }),
  );
  // The objects may hold views of the values' maps: what reads them from here on is not the render.
  recorder.owner(undefined);
  return { docs, reads: recorder.reads, made, reuse: { runs, stored: storedOf } };
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
 * What the parts `ids` make of `values` (the context built anew), one part at a time as the
 * caller asks, the CRDs last (the largest): for a render that differs from a recorded one only
 * in values the other parts and the context did not read, these are the only objects that can
 * differ, and a caller that finds a difference need not render the other parts.
 */
export function* renderSomeParts(values: Values, opts: ChartRenderOptions, ids: ReadonlySet<string>, reuse?: RenderReuse): Generator<PartMade> {
  const ctx = buildRenderContext(values, opts);
  const chosen = parts(opts).filter((p) => ids.has(p.id));
  for (const p of [...chosen.filter((c) => c.id !== 'crds'), ...chosen.filter((c) => c.id === 'crds')]) {
    // A template given the data it had in the recorded render makes the same documents: those are
    // taken (the same objects, so compared at no cost); any other template runs.
    const recorded = reuse?.runs.get(p.id);
    const seen = new Map<string, number>();
    const watch = {
      run(source: string, template: string, data: unknown, make: () => RenderedDoc[]) {
        const key = runKey(source, template);
        const n = seen.get(key) ?? 0;
        seen.set(key, n + 1);
        const before = recorded?.get(key)?.[n];
        return before && sameData(before.data, data) ? [...before.docs] : make();
      },
    };
    const made = recorded ? withTemplateRuns(watch, () => p.make(ctx)) : p.make(ctx);
    yield { id: p.id, made, printed: (d) => reuse?.stored.get(d) ?? storedForms([d])[0]! };
  }
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

/**
 * The render; `part` hears of each part before it runs (nothing made yet) and of what it made, as
 * the part made it and as it is printed.
 */
function renderParts(values: Values, opts: ChartRenderOptions, part?: (id: string, raw?: RenderedDoc[], stored?: RenderedDoc[]) => void): RenderedDoc[] {
  const ctx = buildRenderContext(values, opts);
  const docs: RenderedDoc[] = [];
  for (const p of parts(opts)) {
    part?.(p.id);
    const raw = p.make(ctx);
    // Written as the API server stores each object, so that any field manager can apply it (./server-form.ts).
    const stored = storedForms(raw);
    part?.(p.id, raw, stored);
    docs.push(...stored);
  }
  const ordered = orderDocs(docs);
  assertUnique(ordered);
  return ordered;
}
