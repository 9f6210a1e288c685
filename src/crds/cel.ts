// The CEL evaluator of the CRD rules (@marcbachmann/cel-js), with `self` bound the way the API
// server binds it: to the value of the schema node the rule sits on.

import { Environment } from '@marcbachmann/cel-js';

export type CelProgram = (self: unknown) => unknown;

let env: Environment | undefined;
const cache = new Map<string, CelProgram>();

/** Parses and type-checks a rule; throws on a syntax or type error. Cached by rule text. */
export function compileCel(rule: string): CelProgram {
  let p = cache.get(rule);
  if (!p) {
    env ??= new Environment().registerVariable('self', 'dyn');
    const parsed = env.parse(rule);
    const check = parsed.check();
    if (!check.valid) throw new Error(`type error: ${check.error?.message ?? 'invalid'}`);
    if (check.type !== 'bool' && check.type !== 'dyn') throw new Error(`a rule must give a bool, this one gives ${check.type}`);
    p = (self) => parsed({ self });
    cache.set(rule, p);
  }
  return p;
}
