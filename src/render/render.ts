// The render pipeline: linted values → render context → CRDs, the chart's own components,
// the sub-charts → one ordered, duplicate-free list of objects. Pure: no I/O, no clock.

import { chartCrdDocs, mcpopCrdDocs } from '../crds/index.ts';
import type { Values } from '../values/merge.ts';
import { buildRenderContext, type Component, type RenderContext, type RenderOptions } from '../model/context.ts';
import type { RenderedDoc } from '../model/objects.ts';
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
import { bool, recordingView, type PathReads } from '../model/values-access.ts';

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
  /** The objects each part made, in the order it made them (before the render orders them all). */
  made: ReadonlyMap<string, readonly RenderedDoc[]>;
}

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
  const docs = renderParts(recorder.view, opts, (id, raw, stored) => {
    if (raw && stored) {
      made.set(id, stored);
      // A map of the values put into an object as it is gets printed whole with the object.
      if (id !== 'crds') for (const d of raw) recorder.kept(d.object);
    } else recorder.owner(id);
  });
  // The objects may hold views of the values' maps: what reads them from here on is not the render.
  recorder.owner(undefined);
  return { docs, reads: recorder.reads, made };
}

/**
 * What the parts `ids` make of `values` (the context built anew): for a render that differs from
 * a recorded one only in values the other parts and the context did not read, these are the only
 * objects that can differ.
 */
export function renderSomeParts(values: Values, opts: ChartRenderOptions, ids: ReadonlySet<string>): Map<string, RenderedDoc[]> {
  const ctx = buildRenderContext(values, opts);
  const out = new Map<string, RenderedDoc[]>();
  // In the form render prints them (./server-form.ts), as renderChartWithReads' `made` holds them.
  for (const p of parts(opts)) if (ids.has(p.id)) out.set(p.id, storedForms(p.make(ctx)));
  return out;
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
