// The scope values templates evaluate in, from the render context.
import type { RenderContext } from './context.ts';
import type { TplScope } from './tpl.ts';

export function tplScope(ctx: RenderContext): TplScope {
  return { release: ctx.release, chart: ctx.chart, values: ctx.values, fullname: ctx.fullname, namespace: ctx.namespace };
}
