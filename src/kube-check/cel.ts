// The CEL evaluator of the CRD rules (@marcbachmann/cel-js), with `self` bound the way the API
// server binds it: to the value of the schema node the rule sits on.

import { Environment, type ASTNode } from '@marcbachmann/cel-js';

export type CelProgram = ((self: unknown) => unknown) & {
  /** True only when the rule surely holds for `self` (see holdsSurely); otherwise run the program. */
  holds: (self: unknown) => boolean;
};

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
    // `ast` is part of the parse result's public type (ParseResult in the library's index.d.ts).
    const ast = parsed.ast;
    p = Object.assign((self: unknown) => parsed({ self }), { holds: (self: unknown) => evaluate(ast, self, NO_VARS) === true });
    cache.set(rule, p);
  }
  return p;
}

// ---- a quick "holds" ----
// Most rules hold for most objects, and the evaluator above is an interpreter that every process
// runs cold. `holds` walks the same syntax tree for the simple rules of the CRDs (has, field access,
// ==, !=, !, &&, ||, ?:, in, size, comparisons of ints, all) over strings, booleans, ints, lists
// and maps, and says "true" only when the rule surely evaluates to true: any doubt (a missing
// field, mixed types, a number from the object, a function it does not know) is UNKNOWN, and the
// evaluator decides. && and || give a result only as a left-to-right evaluation would, so nothing
// depends on how errors are absorbed. A property test holds it to the evaluator
// (test/crds/cel-holds.test.ts).

type Ast = ASTNode;

const UNKNOWN: unique symbol = Symbol('unknown');
type Value = unknown;
const NO_VARS: ReadonlyMap<string, Value> = new Map();

function isMap(v: Value): v is Record<string, Value> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Values whose CEL types this compares: strings, booleans and ints (BigInt, as literals and size() give them). */
function comparable(a: Value, b: Value): boolean {
  const t = typeof a;
  return (t === 'string' || t === 'boolean' || t === 'bigint') && typeof b === t;
}

function evaluate(n: Ast, self: Value, vars: ReadonlyMap<string, Value>): Value {
  const args = n.args as Ast[];
  switch (n.op) {
    case 'value': {
      const v = n.args;
      return typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint' ? v : UNKNOWN;
    }
    case 'id':
      return n.args === 'self' ? self : vars.has(n.args as string) ? vars.get(n.args as string) : UNKNOWN;
    case '.': {
      const o = evaluate(args[0]!, self, vars);
      const k = args[1] as unknown as string;
      return isMap(o) && Object.hasOwn(o, k) && o[k] !== undefined ? o[k] : UNKNOWN;
    }
    case 'list': {
      const out: Value[] = [];
      for (const a of args) {
        const v = evaluate(a, self, vars);
        if (v === UNKNOWN) return UNKNOWN;
        out.push(v);
      }
      return out;
    }
    case '!_': {
      const v = evaluate(n.args as Ast, self, vars);
      return typeof v === 'boolean' ? !v : UNKNOWN;
    }
    case '&&': {
      const a = evaluate(args[0]!, self, vars);
      if (a === false) return false;
      if (a !== true) return UNKNOWN;
      const b = evaluate(args[1]!, self, vars);
      return typeof b === 'boolean' ? b : UNKNOWN;
    }
    case '||': {
      const a = evaluate(args[0]!, self, vars);
      if (a === true) return true;
      if (a !== false) return UNKNOWN;
      const b = evaluate(args[1]!, self, vars);
      return typeof b === 'boolean' ? b : UNKNOWN;
    }
    case '?:': {
      const c = evaluate(args[0]!, self, vars);
      return typeof c === 'boolean' ? evaluate(args[c ? 1 : 2]!, self, vars) : UNKNOWN;
    }
    case '==':
    case '!=': {
      const a = evaluate(args[0]!, self, vars);
      const b = evaluate(args[1]!, self, vars);
      if (!comparable(a, b)) return UNKNOWN;
      return n.op === '==' ? a === b : a !== b;
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const a = evaluate(args[0]!, self, vars);
      const b = evaluate(args[1]!, self, vars);
      if (typeof a !== 'bigint' || typeof b !== 'bigint') return UNKNOWN;
      return n.op === '<' ? a < b : n.op === '<=' ? a <= b : n.op === '>' ? a > b : a >= b;
    }
    case 'in': {
      const a = evaluate(args[0]!, self, vars);
      const list = evaluate(args[1]!, self, vars);
      if (typeof a !== 'string' || !Array.isArray(list) || !list.every((x) => typeof x === 'string')) return UNKNOWN;
      return list.includes(a);
    }
    case 'call': {
      const [name, callArgs] = n.args as [string, Ast[]];
      if (callArgs.length !== 1) return UNKNOWN;
      const arg = callArgs[0]!;
      if (name === 'has') {
        if (arg.op !== '.') return UNKNOWN;
        const [target, field] = arg.args as [Ast, string];
        const o = evaluate(target, self, vars);
        return isMap(o) ? Object.hasOwn(o, field) && o[field] !== undefined : UNKNOWN;
      }
      if (name === 'size') {
        const v = evaluate(arg, self, vars);
        // Strings only in ASCII, where every way of counting gives the same length.
        if (typeof v === 'string') return /^[\x00-\x7f]*$/.test(v) ? BigInt(v.length) : UNKNOWN;
        if (Array.isArray(v)) return BigInt(v.length);
        if (isMap(v)) return BigInt(Object.keys(v).length);
      }
      return UNKNOWN;
    }
    case 'rcall': {
      const [name, target, callArgs] = n.args as [string, Ast, Ast[]];
      if (name === 'matches' && callArgs.length === 1) {
        const v = evaluate(target, self, vars);
        const re = simplePattern(evaluate(callArgs[0]!, self, vars));
        return typeof v === 'string' && re ? re.test(v) : UNKNOWN;
      }
      if (name !== 'all' || callArgs.length !== 2 || callArgs[0]!.op !== 'id') return UNKNOWN;
      const list = evaluate(target, self, vars);
      if (!Array.isArray(list)) return UNKNOWN;
      // Every item is evaluated: false only when no item is in doubt.
      const name0 = callArgs[0]!.args as string;
      let result = true;
      for (const item of list) {
        const inner = new Map(vars);
        inner.set(name0, item);
        const v = evaluate(callArgs[1]!, self, inner);
        if (v === false) result = false;
        else if (v !== true) return UNKNOWN;
      }
      return result;
    }
    default:
      return UNKNOWN;
  }
}

/**
 * A `matches` pattern made only of letters, digits, `:/._-`, bracketed letter or digit classes and
 * anchors means the same to RE2 and to JavaScript (a search, as CEL's matches is); anything else is
 * left to the evaluator.
 */
const SIMPLE_PATTERN = /^\^?(?:[A-Za-z0-9:/._-]|\[[A-Za-z0-9]+\])*\$?$/;
const patterns = new Map<string, RegExp>();
function simplePattern(p: Value): RegExp | undefined {
  if (typeof p !== 'string' || !SIMPLE_PATTERN.test(p)) return undefined;
  let re = patterns.get(p);
  if (!re) {
    re = new RegExp(p);
    patterns.set(p, re);
  }
  return re;
}
