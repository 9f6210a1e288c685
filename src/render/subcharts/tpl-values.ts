// Values that pass through the template evaluator before use (authproxy extraEnv, extraVolumes,
// extraArgs; the dashboards URL): every string inside the value is evaluated with the release's
// scope. The lint rule values/templated-values evaluates the same paths first, so a template
// that cannot run is reported there, never rendered as literal text.

import type { RenderContext } from '../../model/context.ts';
import { evaluateDeep } from '../../model/tpl.ts';
import { tplScope } from '../../model/tpl-scope.ts';

/** Evaluates every templated string of a value (lists and maps walked). */
export function evalTplDeep(ctx: RenderContext, value: unknown): unknown {
  return evaluateDeep(value, tplScope(ctx));
}
