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
import { bool } from '../model/values-access.ts';

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
  const ctx = buildRenderContext(values, opts);
  const docs: RenderedDoc[] = [];
  if (!opts.skipCrds) docs.push(...crdDocs(ctx));
  for (const c of CHART_COMPONENTS) docs.push(...c.render(ctx));
  for (const c of SUBCHART_COMPONENTS) docs.push(...c.render(ctx));
  // Written as the API server stores each object, so that any field manager can apply it (./server-form.ts).
  const ordered = storedForms(orderDocs(docs));
  assertUnique(ordered);
  return ordered;
}
