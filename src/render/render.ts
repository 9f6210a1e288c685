// The render pipeline: linted values → render context → CRDs, the chart's own components,
// the sub-charts → one ordered, duplicate-free list of objects. Pure: no I/O, no clock.

import { chartCrdDocs, mcpopCrdDocs } from '../crds/index.ts';
import type { Values } from '../values/merge.ts';
import { buildRenderContext, type Component, type RenderContext, type RenderOptions } from '../model/context.ts';
import type { RenderedDoc } from '../model/objects.ts';
import { assertUnique, orderDocs } from './order.ts';
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
import { bool, recordingView } from '../model/values-access.ts';

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
   * The dotted values paths read, by the part of the render that read them: `context` (the render
   * context and the revision model, which every object rests on), `crds`, and each component's id.
   */
  reads: ReadonlyMap<string, ReadonlySet<string>>;
  /** The part of the render that made each object (a key of `reads`). */
  madeBy: ReadonlyMap<RenderedDoc, string>;
}

/**
 * renderChart, with the values read through a recording view: the same render (the one function
 * below), and which values paths each object was computed from: its component's reads and the
 * context's.
 */
export function renderChartWithReads(values: Values, opts: ChartRenderOptions): RenderWithReads {
  const recorder = recordingView(values);
  const madeBy = new Map<RenderedDoc, string>();
  const docs = renderParts(recorder.view, opts, (id, made) => {
    if (made) for (const d of made) madeBy.set(d, id);
    else recorder.owner(id);
  });
  return { docs, reads: recorder.reads, madeBy };
}

/** The render; `part` hears of each part before it runs (made undefined) and of what it made. */
function renderParts(values: Values, opts: ChartRenderOptions, part?: (id: string, made?: readonly RenderedDoc[]) => void): RenderedDoc[] {
  const ctx = buildRenderContext(values, opts);
  const docs: RenderedDoc[] = [];
  const run = (id: string, make: () => RenderedDoc[]) => {
    part?.(id);
    const made = make();
    part?.(id, made);
    docs.push(...made);
  };
  if (!opts.skipCrds) run('crds', () => crdDocs(ctx));
  for (const c of CHART_COMPONENTS) run(c.id, () => c.render(ctx));
  for (const c of SUBCHART_COMPONENTS) run(c.id, () => c.render(ctx));
  const ordered = orderDocs(docs);
  assertUnique(ordered);
  return ordered;
}
