// A small evaluator for the Helm-style template strings users put in values (`extraObjects`,
// authproxy extras, the dashboards URL): they arrive with values written for the Helm chart.
// It understands this subset, and throws a TplError (with line and column) for anything else, so
// a template is never copied to the output as literal text:
//   {{ .Release.Name }} {{ .Release.Namespace }} {{ .Release.Service }} {{ .Chart.Name }} {{ .Chart.Version }}
//   {{ .Values.a.b }}  {{ $.Values.a }}  {{ include "agentplat.fullname" . }}  {{ tpl .Values.x . }}
//   the chart's own includes (INCLUDES below), "string literals", `raw strings`, numbers, true/false/nil
//   the functions of tpl-functions.ts (Helm's and Sprig's common set) and pipelines
//   (`.Values.x | default "y" | quote`, `toYaml .Values.labels | nindent 4`)
//   whitespace trimming {{- and -}}, comments {{/* … */}}
// No actions (if, range, with, define) and no variables: those are an error naming them.
import { FUNCTIONS, REFUSED_FUNCTIONS, strval, type CallContext } from './tpl-functions.ts';
import { dnsTrunc } from './context.ts';
import { signInChecksum } from './sign-in-template.ts';

export interface TplScope {
  release: { name: string; namespace: string };
  chart: { name: string; version: string };
  values: Record<string, unknown>;
  /** The chart fullname (`agentplat.fullname`). */
  fullname: string;
  /** The chart namespace, namespaceOverride honoured (`agentplat.namespace`). */
  namespace: string;
}

export class TplError extends Error {
  constructor(
    message: string,
    /** 1-based line inside the template text. */
    readonly line: number,
    /** 1-based column inside that line. */
    readonly column: number,
  ) {
    super(`${message} (line ${line}, column ${column})`);
    this.name = 'TplError';
    this.reason = message;
  }
  readonly reason: string;
}

export type TplInclude = (scope: TplScope) => string;

// Every include a values template may name, in one table: render and lint see the same set
// whatever modules a run happened to load.
const INCLUDES: ReadonlyMap<string, TplInclude> = new Map<string, TplInclude>([
  ['agentplat.fullname', (s) => s.fullname],
  ['agentplat.namespace', (s) => s.namespace],
  ['agentplat.name', (s) => (typeof s.values.nameOverride === 'string' && s.values.nameOverride !== '' ? s.values.nameOverride : s.chart.name)],
  ['agentplat.chart', (s) => `${s.chart.name}-${s.chart.version}`],
  // The authentication proxy's sign-in page (src/model/sign-in-template.ts): its checksum and the ConfigMap that mounts it.
  ['agentplat.authproxy.signInChecksum', () => signInChecksum()],
  ['agentplat.authproxy.templatesName', (s) => dnsTrunc(`${s.fullname}-authproxy-templates`)],
]);

export function tplIncludeNames(): string[] {
  return [...INCLUDES.keys()].sort();
}

/** True when the text contains a template action. */
export function isTemplated(text: string): boolean {
  return text.includes('{{');
}

/** Evaluates every action of `text`; throws TplError at the first one it cannot evaluate. */
export function evaluateTpl(text: string, scope: TplScope): string {
  let out = '';
  for (const step of stepsOf(text)) {
    if (typeof step === 'string') out += step;
    else if (step.kind === 'fail') throw step.error();
    else out += printValue(evalPipeline(step.toks, step.start, step.end, text, scope), text, step.open);
  }
  return out;
}

/**
 * A template text cut into what evaluateTpl does in turn: literal text, actions (tokenized), and
 * the error met where the text cannot be cut further (an unclosed action, a token that is not
 * one), thrown only when evaluation reaches it, so an action before it still fails first.
 */
type Step = string | { kind: 'action'; toks: readonly Tok[]; start: number; end: number; open: number } | { kind: 'fail'; error: () => TplError };

/**
 * The steps of each text seen, kept across renders: the same values template (a `tpl` string of
 * the values, a template include) is cut once per process however many renders evaluate it.
 * Bounded: cleared when full.
 */
const STEPS = new Map<string, readonly Step[]>();
const MAX_STEPS = 2000;

function stepsOf(text: string): readonly Step[] {
  const known = STEPS.get(text);
  if (known) return known;
  const steps = cut(text);
  if (STEPS.size >= MAX_STEPS) STEPS.clear();
  STEPS.set(text, steps);
  return steps;
}

function cut(text: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{{', i);
    if (open < 0) {
      steps.push(text.slice(i));
      break;
    }
    let literal = text.slice(i, open);
    let start = open + 2;
    if (text[start] === '-' && /\s/.test(text[start + 1] ?? '')) {
      literal = literal.replace(/\s+$/, '');
      start++;
    }
    steps.push(literal);
    const close = findClose(text, start);
    if (close < 0) {
      steps.push({ kind: 'fail', error: () => errAt(text, open, 'unclosed action: missing "}}"') });
      return steps;
    }
    let end = close;
    let trimRight = false;
    if (text[close - 1] === '-' && /\s/.test(text[close - 2] ?? '')) {
      trimRight = true;
      end = close - 1;
    }
    const body = text.slice(start, end);
    const trimmed = body.trim();
    if (!(trimmed.startsWith('/*') && trimmed.endsWith('*/'))) {
      try {
        steps.push({ kind: 'action', toks: tokenize(body, start, text), start, end, open });
      } catch (err) {
        if (!(err instanceof TplError)) throw err;
        steps.push({ kind: 'fail', error: () => new TplError(err.reason, err.line, err.column) });
        return steps;
      }
    }
    i = close + 2;
    if (trimRight) while (i < text.length && /\s/.test(text[i]!)) i++;
  }
  return steps;
}

/** Where `}}` closes the action starting at `from`, skipping string literals. */
function findClose(text: string, from: number): number {
  let q: string | undefined;
  for (let k = from; k < text.length - 1; k++) {
    const c = text[k]!;
    if (q) {
      if (c === '\\' && q === '"') k++;
      else if (c === q) q = undefined;
      continue;
    }
    if (c === '"' || c === '`') q = c;
    else if (c === '}' && text[k + 1] === '}') return k;
  }
  return -1;
}

function errAt(text: string, offset: number, message: string): TplError {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return new TplError(message, line, column);
}

// ------------------------------------------------------------------------------------------
// Tokens and evaluation

type Tok = { kind: 'field' | 'dot' | 'str' | 'num' | 'ident' | 'pipe' | 'lparen' | 'rparen'; text: string; value?: unknown; at: number };

function tokenize(body: string, base: number, text: string): Tok[] {
  const toks: Tok[] = [];
  let k = 0;
  while (k < body.length) {
    const c = body[k]!;
    const at = base + k;
    if (/\s/.test(c)) {
      k++;
    } else if (c === '|') {
      toks.push({ kind: 'pipe', text: c, at });
      k++;
    } else if (c === '(' || c === ')') {
      toks.push({ kind: c === '(' ? 'lparen' : 'rparen', text: c, at });
      k++;
    } else if (c === '"') {
      let j = k + 1;
      let s = '';
      for (; j < body.length && body[j] !== '"'; j++) {
        if (body[j] === '\\') {
          const n = body[++j];
          s += n === 'n' ? '\n' : n === 't' ? '\t' : (n ?? '');
        } else s += body[j];
      }
      if (j >= body.length) throw errAt(text, at, 'unterminated string literal');
      toks.push({ kind: 'str', text: body.slice(k, j + 1), value: s, at });
      k = j + 1;
    } else if (c === '`') {
      const j = body.indexOf('`', k + 1);
      if (j < 0) throw errAt(text, at, 'unterminated raw string literal');
      toks.push({ kind: 'str', text: body.slice(k, j + 1), value: body.slice(k + 1, j), at });
      k = j + 1;
    } else if (c === '.' || c === '$') {
      const m = /^(\$|\.)((\.?[A-Za-z_][\w-]*)*)/.exec(body.slice(k))!;
      const raw = m[0];
      if (raw === '.' || raw === '$') toks.push({ kind: 'dot', text: raw, at });
      else toks.push({ kind: 'field', text: raw, at });
      k += raw.length;
    } else if (/[0-9-]/.test(c)) {
      const m = /^-?\d+(\.\d+)?/.exec(body.slice(k));
      if (!m) throw errAt(text, at, `unexpected "${c}"`);
      toks.push({ kind: 'num', text: m[0], value: Number(m[0]), at });
      k += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_]\w*/.exec(body.slice(k))!;
      toks.push({ kind: 'ident', text: m[0], at });
      k += m[0].length;
    } else {
      throw errAt(text, at, `unexpected "${c}"`);
    }
  }
  return toks;
}

const ROOT = Symbol('root');

/** Evaluates one action: its tokens, which run from `base` to `end` in `text`. */
function evalPipeline(toks: readonly Tok[], base: number, end: number, text: string, scope: TplScope): unknown {
  if (toks.length === 0) throw errAt(text, base, 'empty action');
  let pos = 0;

  const parsePipeline = (stop?: 'rparen'): unknown => {
    let value = parseCommand(undefined, false);
    while (pos < toks.length && toks[pos]!.kind === 'pipe') {
      pos++;
      value = parseCommand(value, true);
    }
    if (stop && toks[pos]?.kind !== 'rparen') throw errAt(text, toks[pos]?.at ?? end, 'expected ")"');
    return value;
  };

  const parseOperand = (): unknown => {
    const t = toks[pos];
    if (!t) throw errAt(text, end, 'missing operand');
    pos++;
    switch (t.kind) {
      case 'str':
      case 'num':
        return t.value;
      case 'dot':
        return ROOT;
      case 'field':
        return lookupField(t, scope, text);
      case 'lparen': {
        const v = parsePipeline('rparen');
        pos++;
        return v;
      }
      case 'ident':
        if (t.text === 'true' || t.text === 'false') return t.text === 'true';
        if (t.text === 'nil') return undefined;
        throw errAt(text, t.at, `function "${t.text}" needs parentheses to be used as an argument`);
      default:
        throw errAt(text, t.at, `unexpected "${t.text}"`);
    }
  };

  const atEnd = () => pos >= toks.length || toks[pos]!.kind === 'pipe' || toks[pos]!.kind === 'rparen';

  const parseCommand = (piped: unknown, isPiped: boolean): unknown => {
    const t = toks[pos];
    if (!t) throw errAt(text, end, 'missing command after "|"');
    if (t.kind === 'ident' && t.text !== 'true' && t.text !== 'false' && t.text !== 'nil') {
      // An action keyword is named before its arguments are read (`if eq .a "b"` would otherwise
      // fail on `eq` as an argument, naming the wrong thing).
      if (ACTIONS.has(t.text)) throw actionError(t, text);
      pos++;
      const args: unknown[] = [];
      while (!atEnd()) args.push(parseOperand());
      if (isPiped) args.push(piped);
      return callFunction(t, args, scope, text);
    }
    if (isPiped) throw errAt(text, t.at, 'only a function can follow "|"');
    const v = parseOperand();
    if (!atEnd()) throw errAt(text, toks[pos]!.at, `unexpected "${toks[pos]!.text}" after a value`);
    return v;
  };

  const result = parsePipeline();
  if (pos < toks.length) throw errAt(text, toks[pos]!.at, `unexpected "${toks[pos]!.text}"`);
  return result;
}

function lookupField(t: Tok, scope: TplScope, text: string): unknown {
  const parts = t.text.replace(/^\$/, '').split('.').filter(Boolean);
  const [head, ...rest] = parts;
  let cur: unknown;
  switch (head) {
    case 'Values':
      cur = scope.values;
      break;
    case 'Release':
      cur = { Name: scope.release.name, Namespace: scope.release.namespace, Service: 'agentplat' };
      break;
    case 'Chart':
      cur = { Name: scope.chart.name, Version: scope.chart.version };
      break;
    default:
      throw errAt(text, t.at, `unsupported field ".${head}" (supported: .Values, .Release.Name, .Release.Namespace, .Chart.Name, .Chart.Version)`);
  }
  for (const seg of rest) {
    if (cur === null || cur === undefined) return undefined;
    if (typeof cur !== 'object' || Array.isArray(cur)) throw errAt(text, t.at, `"${t.text}": cannot read "${seg}" of a non-map value`);
    if (head !== 'Values' && !(seg in (cur as object))) throw errAt(text, t.at, `unsupported field "${t.text}"`);
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** How deep `tpl` and `include` may nest before the evaluation stops (a template that includes itself). */
const MAX_DEPTH = 32;
let depth = 0;

function callFunction(t: Tok, args: unknown[], scope: TplScope, text: string): unknown {
  const fn = Object.hasOwn(FUNCTIONS, t.text) ? FUNCTIONS[t.text] : undefined;
  if (!fn) {
    const refused = Object.hasOwn(REFUSED_FUNCTIONS, t.text) ? REFUSED_FUNCTIONS[t.text] : undefined;
    if (refused) throw errAt(text, t.at, `function "${t.text}" is not supported: ${refused}`);
    if (ACTIONS.has(t.text)) throw actionError(t, text);
    throw errAt(text, t.at, `unsupported function "${t.text}"`);
  }
  const nested = <T>(run: () => T): T => {
    if (depth >= MAX_DEPTH) throw errAt(text, t.at, `${t.text}: templates nest more than ${MAX_DEPTH} deep`);
    depth++;
    try {
      return run();
    } finally {
      depth--;
    }
  };
  const c: CallContext = {
    name: t.text,
    fail: (message) => {
      throw errAt(text, t.at, message);
    },
    include(name, ctxArg) {
      if (ctxArg !== ROOT) throw errAt(text, t.at, `include "${name}" must be given the root context "."`);
      const inc = INCLUDES.get(name);
      if (!inc) throw errAt(text, t.at, `unknown include "${name}" (known: ${tplIncludeNames().join(', ')})`);
      return nested(() => inc(scope));
    },
    tpl(body, ctxArg) {
      if (ctxArg !== ROOT) throw errAt(text, t.at, 'tpl must be given the root context "."');
      return nested(() => {
        try {
          return evaluateTpl(body, scope);
        } catch (err) {
          if (err instanceof TplError) throw errAt(text, t.at, `tpl: ${err.message}`);
          throw err;
        }
      });
    },
  };
  if (args.some((a) => a === ROOT) && t.text !== 'include' && t.text !== 'tpl') throw errAt(text, t.at, `${t.text} cannot take the root context "."`);
  return fn(args, c);
}

/** Go template actions, which values templates do not run. */
function actionError(t: Tok, text: string): TplError {
  return errAt(text, t.at, `"${t.text}" actions are not supported in values templates (only expressions and pipelines)`);
}

const ACTIONS = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'template', 'block', 'break', 'continue']);

function printValue(v: unknown, text: string, offset: number): string {
  if (v === ROOT) throw errAt(text, offset, 'cannot print the root context "."');
  if (v === undefined || v === null) throw errAt(text, offset, 'the expression has no value (a missing key?); use `default` to give one');
  if (typeof v === 'object') throw errAt(text, offset, 'cannot print a map or list inside a string (toYaml or toJson prints one)');
  return strval(v);
}

// ------------------------------------------------------------------------------------------
// Walking values

export interface TplProblem {
  /** Values path segments of the offending string (`['extraObjects', 2, 'metadata', 'name']`). */
  path: (string | number)[];
  message: string;
}

/** Evaluates every templated string (and map key) inside a value; returns a new value. */
export function evaluateDeep(value: unknown, scope: TplScope, path: (string | number)[] = [], problems?: TplProblem[]): unknown {
  if (typeof value === 'string') {
    if (!isTemplated(value)) return value;
    try {
      return evaluateTpl(value, scope);
    } catch (err) {
      if (problems && err instanceof TplError) {
        problems.push({ path, message: err.message });
        return value;
      }
      throw err;
    }
  }
  // The path is built only for a caller that collects problems (it names where each is).
  if (Array.isArray(value)) return value.map((v, i) => evaluateDeep(v, scope, problems ? [...path, i] : path, problems));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const at = problems ? [...path, k] : path;
      const key = evaluateDeep(k, scope, at, problems) as string;
      out[key] = evaluateDeep(v, scope, at, problems);
    }
    return out;
  }
  return value;
}
