// The scope values templates evaluate in, from the render context (or, for lint, the same facts
// of the release made by releaseFacts): the one place render and lint build it.
import type { RenderContext } from './context.ts';
import type { TplScope } from './tpl.ts';

export function tplScope(ctx: Pick<RenderContext, 'release' | 'chart' | 'values' | 'fullname' | 'namespace'>): TplScope {
  return { release: ctx.release, chart: ctx.chart, values: ctx.values, fullname: ctx.fullname, namespace: ctx.namespace };
}
