// Values that pass through the template evaluator before use (authproxy extraEnv, extraVolumes,
// existingSecret; the dashboards URL): every string inside the value is evaluated.
// PENDING: wire to src/render/tpl.ts when it lands; until then strings pass unchanged.

import type { RenderContext } from '../context.ts';
import { isPlainMap } from '../../values/merge.ts';

export function evalTplString(_ctx: RenderContext, text: string): string {
  return text;
}

/** Evaluates every string of a value (lists and maps walked; keys unchanged). */
export function evalTplDeep(ctx: RenderContext, value: unknown): unknown {
  if (typeof value === 'string') return value.includes('{{') ? evalTplString(ctx, value) : value;
  if (Array.isArray(value)) return value.map((v) => evalTplDeep(ctx, v));
  if (isPlainMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = evalTplDeep(ctx, v);
    return out;
  }
  return value;
}
