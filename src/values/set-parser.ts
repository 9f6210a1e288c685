// The `--set` family: turns `a.b[0]=x,c=y` flag arguments into values, with Helm's grammar.
//
// Grammar of one flag argument (whitespace is never trimmed; it belongs to keys and values):
//
//   argument   = assignment { "," assignment } [ "," ]
//   assignment = key "=" value
//   key        = name { "." name | "[" digits "]" }   (a name may be followed directly by indices)
//   name       = characters other than . [ = , ; a backslash takes the next character literally
//   value      = "{" item { "," item } "}"  a list (--set, --set-string)
//              | characters up to the next unescaped ","
//              | one JSON value                          (--set-json; nothing at all means null)
//
// So `--set ingress.hosts[0].name=a\,b,ingress.enabled=true,tags={x,y},podLabels.app\.io/team=ml`
// means, as YAML:
//
//   ingress:
//     hosts:
//       - name: "a,b"
//     enabled: true
//   tags: [x, y]
//   podLabels:
//     app.io/team: ml
//
// Typing follows Helm: --set turns true/false and null (any letter case) into booleans and null,
// and decimal integers without a leading zero into numbers; everything else, `1.5`, `0x1` and
// `007` included, stays a string. --set-string never types; --set-json parses JSON (a whole
// argument that is a JSON object merges into the values, as in helm); --set-file reads the file
// each value names (`a=f1,b=f2`, `\,` for a comma in a path); --set-literal takes one key, read
// without escapes (`a\.b` is the two names `a\` and `b`, `a,b` one name), and everything after
// its "=" as one string. `a={}` is the list [""], as in helm. Writing `a[3]=x` grows the list and
// fills the gap with null; an index is read as helm reads it (`a[007]`, `a[+1]`, `a[-0]`).
// Flags edit the tree the -f files built in place (load.ts, merge.ts), so `l[2]=x` extends a
// list from a file and `l[0].a=x` edits its first item.
//
// Where this differs from Helm, on purpose (docs/values.md, "Where agentplat's `--set` differs from helm's, and why"):
// a key that already holds a value of another shape in the same flag (`a=1,a.b=2`) is an error
// with a column rather than a panic message, and over a value from a file the flag replaces it;
// an existing null may be replaced by a map or list; empty key segments are errors (helm drops
// them); nesting depth counts list indices too.

import type { PathSegment } from './source.ts';
import { YAML_LIMITS, describe } from './source.ts';
import { isPlainMap, joinPath, mergeMaps, setOwn, type Values } from './merge.ts';
import { maskSpans, VALUES_SECRETS, type Masked } from '../problems/secrets.ts';

export type SetKind = 'set' | 'set-string' | 'set-json' | 'set-literal';

/** Largest list index a flag may write; a bigger one would allocate a huge list. Helm uses the same. */
export const MAX_SET_INDEX = 65536;
/** Most segments (names and indices) one key may have. */
export const MAX_SET_DEPTH = 30;

export interface SetAssignment {
  /** Path the assignment wrote. */
  path: PathSegment[];
  /** 1-based column of the key inside the flag's argument. */
  column: number;
}

export class SetSyntaxError extends Error {
  constructor(message: string, readonly column: number, readonly hint?: string) {
    super(message);
    this.name = 'SetSyntaxError';
  }
}

/**
 * Applies one flag argument (`a.b=1,c[0]=x`) to `target`, mutating it as Helm does.
 * The whole argument is parsed before anything is written, so a syntax error leaves the target
 * untouched. Throws SetSyntaxError (never anything else) for bad input.
 */
export function applySetArgument(target: Values, arg: string, kind: SetKind, over = false): SetAssignment[] {
  const parsed = kind === 'set-literal' ? [parseSetLiteralArgument(arg)] : parseArgument(arg, kind);
  return applyParsed(target, parsed, over);
}

/**
 * Makes parsed assignments in `target`. `over`: the target holds the layers below the flag, whose
 * values of another shape the flag replaces (see assignPath).
 */
export function applyParsed(target: Values, parsed: readonly ParsedAssignment[], over = false): SetAssignment[] {
  const out: SetAssignment[] = [];
  for (const a of parsed) {
    if (a.path.length === 0) {
      // `--set-json '{"a":1}'`: the object merges into the values as a file would.
      const merged = mergeMaps(target, a.value as Values);
      for (const [k, v] of Object.entries(merged)) setOwn(target, k, v);
      for (const k of Object.keys(a.value as Values)) out.push({ path: [k], column: a.columns[0]! });
      continue;
    }
    assignPath(target, a.path, a.value, a.columns, over);
    out.push({ path: a.path, column: a.columns[0]! });
  }
  return out;
}

/**
 * Parses a --set-file argument in --set's grammar (`a=f1,b=f2`, `l={f1,f2}`, `a=x\,y`); each
 * value is the path of a file whose text becomes the value. Values are file paths, untyped.
 */
export function parseSetFileArgument(arg: string): ParsedAssignment[] {
  const parsed = parseArgument(arg, 'set-string');
  for (const a of parsed) {
    for (const file of typeof a.value === 'string' ? [a.value] : (a.value as string[])) {
      if (file === '') throw new SetSyntaxError(`no file path for ${JSON.stringify(joinPath(a.path))}`, a.columns[0]!, 'write --set-file key=path/to/file');
    }
  }
  return parsed;
}

/**
 * Splits `key=text` of --set-literal: the key read literally (no escapes; a comma is part of the
 * name), then everything after the first `=` as one string, commas, braces and backslashes included.
 */
export function parseSetLiteralArgument(arg: string): ParsedAssignment {
  const { path, columns, rest: value } = splitLiteralArgument(arg);
  return { path, columns, value };
}

/** --set-literal with the value masked when the key is a secret field. */
export function maskSetLiteralArgument(arg: string): Masked {
  try {
    const { path, restColumn } = splitLiteralArgument(arg);
    return maskSpans(arg, VALUES_SECRETS.covers(path) ? [[restColumn - 1, arg.length]] : []);
  } catch (err) {
    if (!(err instanceof SetSyntaxError)) throw err;
    // A key that does not parse names no field; whatever follows its first "=" may still be a secret.
    const eq = arg.indexOf('=');
    return maskSpans(arg, eq < 0 ? [] : [[eq + 1, arg.length]]);
  }
}

/** The literal key of a `key=rest` argument and the rest taken literally; `restColumn` is the rest's 1-based column. */
function splitLiteralArgument(arg: string): { path: PathSegment[]; columns: number[]; rest: string; restColumn: number } {
  const s = new Scanner(arg, false);
  if (arg === '') throw new SetSyntaxError('empty argument', 1, 'write key=value, e.g. controller.replicas=2');
  const key = readKey(s);
  return { path: key.path, columns: key.columns, rest: arg.slice(s.pos), restColumn: s.pos + 1 };
}

/**
 * Writes `value` at `path` in `target` the way a flag does: missing maps and lists are created,
 * lists grow with null, a list item that is not a map becomes one when a name follows it (as in
 * helm), and a key that holds another shape is an error, unless `over` (the target holds lower
 * layers, whose value the flag then replaces). `columns` (1-based, one per segment) place that
 * error; without them it points at column 1.
 */
export function assignPath(target: Values, path: readonly PathSegment[], value: unknown, columns: readonly number[] = [], over = false): void {
  let cur: Values | unknown[] = target;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    if (i === path.length - 1) {
      setChild(cur, seg, value);
      return;
    }
    const wantList = typeof path[i + 1] === 'number';
    let next = getChild(cur, seg);
    const fits = wantList ? Array.isArray(next) : isPlainMap(next);
    if (!fits && (next === undefined || next === null || over || (Array.isArray(cur) && !wantList))) {
      next = wantList ? [] : {};
      setChild(cur, seg, next);
    } else if (!fits) {
      throw new SetSyntaxError(
        `cannot set ${joinPath(path)}: ${joinPath(path.slice(0, i + 1))} already holds ${describe(next)}, not a ${wantList ? 'list' : 'map'}`,
        columns[i + 1] ?? columns[0] ?? 1,
        'a key holds one shape: a map (a.b=…), a list (a[0]=…) or a single value',
      );
    }
    cur = next as Values | unknown[];
  }
}

/**
 * The argument with the values of secret fields masked (maskSpans: a fixed mask, with the
 * columns mapped), for excerpts in messages. A JSON value is masked too when a secret field lies inside
 * it. After a syntax error the rest of the argument is read loosely, assignment by assignment,
 * so a secret written after the error stays hidden while the user's own mistake stays readable.
 */
export function maskSetArgument(arg: string, kind: SetKind): Masked {
  const spans: ValueSpan[] = [];
  try {
    parseArgument(arg, kind, spans);
  } catch (err) {
    if (!(err instanceof SetSyntaxError)) throw err;
    const last = spans[spans.length - 1];
    const resume = last ? last.to + (arg[last.to] === ',' ? 1 : 0) : 0;
    spans.push(...looseValueSpans(arg, resume, kind));
  }
  const secret = spans.filter(({ path }) => VALUES_SECRETS.covers(path) || (kind === 'set-json' && VALUES_SECRETS.holdsSecretBelow(path)));
  return maskSpans(arg, secret.map(({ from, to }) => [Math.max(0, from), to] as const));
}

/**
 * Best-effort `key=value` spans of an argument that does not parse, from `from` on: values end at
 * the next unescaped comma, keys split at dots and `[n]`. A JSON value whose brackets do not close
 * runs to the end of the argument.
 */
function looseValueSpans(arg: string, from: number, kind: SetKind): ValueSpan[] {
  const out: ValueSpan[] = [];
  let i = from;
  while (i < arg.length) {
    const eq = nextUnescaped(arg, i, '=,');
    if (eq >= arg.length || arg[eq] === ',') {
      i = eq + 1;
      continue;
    }
    const path: PathSegment[] = arg
      .slice(i, eq)
      .split(/(?<!\\)\.|\[(\d+)\]/)
      .filter((seg): seg is string => seg !== undefined && seg !== '')
      .map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg.replace(/\\(.)/g, '$1')));
    let start = eq + 1;
    while (start < arg.length && /\s/.test(arg[start]!)) start++;
    let end: number;
    if (kind === 'set-json' && '[{"'.includes(arg[start] ?? ',')) {
      try {
        end = jsonExtent(arg, start);
      } catch {
        end = arg.length;
      }
    } else {
      end = nextUnescaped(arg, eq + 1, ',');
    }
    out.push({ from: eq + 1, to: end, path });
    i = end + 1;
  }
  return out;
}

/** Offset of the first character of `stops` at or after `from` that no backslash escapes, or the length. */
function nextUnescaped(text: string, from: number, stops: string): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (stops.includes(text[i]!)) return i;
  }
  return text.length;
}

interface ValueSpan {
  from: number;
  to: number;
  path: PathSegment[];
}

export interface ParsedAssignment {
  path: PathSegment[];
  /** 1-based column of each segment of the path. */
  columns: number[];
  value: unknown;
}

class Scanner {
  pos = 0;
  /** `escapes`: a backslash takes the next character literally (false for --set-literal keys). */
  constructor(readonly text: string, readonly escapes = true) {}
  get done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): string | undefined {
    return this.text[this.pos];
  }
  /** 1-based column of the current position. */
  get column(): number {
    return this.pos + 1;
  }
  /**
   * Reads up to (not including) the first unescaped character in `stops`, resolving escapes.
   */
  readUntil(stops: string): string {
    let out = '';
    while (!this.done) {
      const c = this.text[this.pos]!;
      if (stops.includes(c)) break;
      if (c === '\\' && this.escapes) {
        // A trailing backslash escapes nothing and is dropped, as in helm.
        if (this.pos + 1 < this.text.length) out += this.text[this.pos + 1];
        this.pos = Math.min(this.pos + 2, this.text.length);
        continue;
      }
      out += c;
      this.pos++;
    }
    return out;
  }
}

function parseArgument(arg: string, kind: SetKind, valueSpans: ValueSpan[] = []): ParsedAssignment[] {
  const s = new Scanner(arg);
  const out: ParsedAssignment[] = [];
  if (arg === '') throw new SetSyntaxError('empty argument', 1, 'write key=value, e.g. controller.replicas=2');
  if (kind === 'set-json' && arg.trim().startsWith('{')) {
    // A whole JSON object (`--set-json '{"a":{"b":1}}'`) merges into the values, as in helm.
    const start = arg.length - arg.trimStart().length;
    const value = parseJsonText(arg.trim(), start + 1);
    valueSpans.push({ from: start, to: arg.length, path: [] });
    return [{ path: [], columns: [start + 1], value }];
  }
  while (!s.done) {
    const key = readKey(s);
    const start = s.pos;
    const value = kind === 'set-json' ? readJsonValue(s) : readPlainValue(s, kind);
    valueSpans.push({ from: start, to: s.pos, path: key.path });
    out.push({ path: key.path, columns: key.columns, value });
    // One separator between assignments; a trailing comma is allowed, as in Helm.
    if (s.peek() === ',') s.pos++;
  }
  return out;
}

/** Reads `name{.name|[n]}=` and leaves the scanner after the `=`. */
function readKey(s: Scanner): { path: PathSegment[]; columns: number[] } {
  const path: PathSegment[] = [];
  const columns: number[] = [];
  const push = (seg: PathSegment, column: number) => {
    if (path.length >= MAX_SET_DEPTH) {
      throw new SetSyntaxError(`the key nests deeper than ${MAX_SET_DEPTH} levels`, column, 'values of this chart are never that deep');
    }
    path.push(seg);
    columns.push(column);
  };
  for (;;) {
    const nameStart = s.column;
    const name = s.readUntil(s.escapes ? '=[,.' : '=[.');
    if (name === '') throw emptyName(s, path.length === 0);
    push(name, nameStart);
    while (s.peek() === '[') {
      const column = s.column + 1;
      push(readIndex(s), column);
    }
    const c = s.peek();
    if (c === '=') {
      s.pos++;
      return { path, columns };
    }
    if (c === '.') {
      s.pos++;
      continue;
    }
    if (c === undefined || (c === ',' && s.escapes)) {
      throw new SetSyntaxError(
        `key ${JSON.stringify(joinPath(path))} has no value; expected "=" ${c === ',' ? 'before ","' : 'at the end'}`,
        s.column,
        'write key=value; write "\\," for a comma inside a value',
      );
    }
    // Only an index can be followed by anything else: readUntil stops at the other characters.
    throw new SetSyntaxError(`unexpected ${JSON.stringify(c)} after a list index; expected ".", "[" or "="`, s.column);
  }
}

function emptyName(s: Scanner, atStart: boolean): SetSyntaxError {
  const c = s.peek();
  if (!atStart) {
    return new SetSyntaxError('empty key segment', s.column, 'a dotted key needs a name between dots, e.g. a.b.c=1; write "\\." for a dot inside a name');
  }
  if (c === '[') return new SetSyntaxError('a list index needs a key before it; the top level is a map', s.column, 'write key[0]=value');
  if (c === ',') return new SetSyntaxError('empty assignment between commas', s.column, 'remove the extra ","');
  return new SetSyntaxError('empty key before "="', s.column, 'write key=value, e.g. controller.replicas=2');
}

/** Reads `[digits]` at the scanner, which stands on `[`. */
function readIndex(s: Scanner): number {
  const open = s.column;
  s.pos++;
  const start = s.pos;
  const close = s.text.indexOf(']', start);
  if (close < 0) throw new SetSyntaxError('"[" is not closed with "]"', open, 'write a list index as key[0]');
  const digits = s.text.slice(start, close);
  const column = start + 1;
  // Read as Go's strconv.Atoi reads it, as helm does: a sign and leading zeros are allowed.
  if (!/^[+-]?\d+$/.test(digits)) throw new SetSyntaxError(`list index ${JSON.stringify(digits)} is not a number`, column, 'write a list index as key[0]');
  const magnitude = digits.replace(/^[+-]?0*/, '');
  if (digits[0] === '-' && magnitude !== '') throw new SetSyntaxError(`list index ${digits} is negative`, column, 'list indices start at 0');
  // Compare as text first so a 400-digit index cannot turn into Infinity.
  const n = magnitude.length > 7 ? Infinity : Number(magnitude);
  if (n > MAX_SET_INDEX) throw new SetSyntaxError(`list index ${digits} is larger than the limit of ${MAX_SET_INDEX}`, column, 'lists in values are short; check the index');
  s.pos = close + 1;
  return n;
}

/** A --set / --set-string value: a `{a,b}` list or text up to the next unescaped comma. */
function readPlainValue(s: Scanner, kind: SetKind): unknown {
  const typed = (text: string) => (kind === 'set-string' ? text : inferType(text));
  if (s.peek() !== '{') return typed(s.readUntil(','));
  const open = s.column;
  s.pos++;
  const list: unknown[] = [];
  // `{}` is one empty item ([""]), as in helm.
  for (;;) {
    const item = s.readUntil(',}');
    if (s.done) throw new SetSyntaxError('"{" is not closed with "}"', open, 'write a list as key={a,b}; write "\\," for a comma inside an item');
    list.push(typed(item));
    if (s.text[s.pos++] === '}') break;
  }
  if (!s.done && s.peek() !== ',') {
    throw new SetSyntaxError(`unexpected ${JSON.stringify(s.peek())} after "}"; expected "," or the end`, s.column);
  }
  return list;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Helm's typing for --set: booleans, null, decimal integers without a leading zero (int64: a BigInt past 2^53). */
export function inferType(text: string): unknown {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  if (text === '0') return 0;
  // Like Go's ParseInt after Helm's leading-zero check: an optional sign, then digits.
  if (text[0] !== '0' && /^[+-]?\d+$/.test(text)) {
    const big = BigInt(text);
    // Helm keeps an int64 and the text beyond it. A JavaScript number holds the digits up to
    // 2^53; past that the value stays a BigInt, which every writer prints with its exact digits.
    if (big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(big);
    if (big >= INT64_MIN && big <= INT64_MAX) return big;
  }
  return text;
}

/** One JSON value, then `,` or the end. Nothing (or only blanks) before the comma means null. */
function readJsonValue(s: Scanner): unknown {
  while (!s.done && /\s/.test(s.peek()!)) s.pos++;
  if (s.done || s.peek() === ',') return null;
  const start = s.pos;
  const end = jsonExtent(s.text, start);
  const value = parseJsonText(s.text.slice(start, end), start + 1);
  s.pos = end;
  while (!s.done && /\s/.test(s.peek()!)) s.pos++;
  if (!s.done && s.peek() !== ',') {
    throw new SetSyntaxError(`unexpected ${JSON.stringify(s.peek())} after the JSON value; expected "," or the end`, s.column, JSON_HINT);
  }
  return value;
}

const JSON_HINT = 'write a JSON value, e.g. key={"a":1}, key=[1,2] or key="text"';

/**
 * One JSON value starting at 1-based `column`, with helm's limits: a number a 64-bit float cannot
 * hold (`1e400`) is refused, as Go's JSON decoder refuses it, and so is nesting beyond the limit.
 */
function parseJsonText(text: string, column: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SetSyntaxError('invalid JSON value', column, JSON_HINT);
  }
  if (depthOver(value, YAML_LIMITS.maxDepth)) {
    throw new SetSyntaxError(`the JSON value nests deeper than ${YAML_LIMITS.maxDepth} levels`, column, 'values of this chart are never that deep');
  }
  const huge = infiniteNumber(value);
  if (huge) throw new SetSyntaxError('a number in the JSON value is too large for a 64-bit float', column, 'write a smaller number, or a string ("1e400")');
  return value;
}

/** True when a number somewhere in `value` overflowed to Infinity. */
function infiniteNumber(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number' && !Number.isFinite(v)) return true;
    if (v !== null && typeof v === 'object') stack.push(...Object.values(v));
  }
  return false;
}

/** Offset just past the JSON value starting at `start`: balanced brackets, a string, or a bare scalar up to `,`. */
function jsonExtent(text: string, start: number): number {
  const first = text[start];
  if (first === '"') {
    const end = stringEnd(text, start);
    if (end < 0) throw new SetSyntaxError('the JSON string is not closed with \'"\'', start + 1);
    return end;
  }
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (c === '"') {
        const end = stringEnd(text, i);
        if (end < 0) throw new SetSyntaxError('the JSON string is not closed with \'"\'', i + 1);
        i = end - 1;
      } else if (c === '{' || c === '[') {
        depth++;
      } else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    throw new SetSyntaxError(`"${first}" is not closed with "${first === '{' ? '}' : ']'}"`, start + 1, 'check the brackets of the JSON value');
  }
  const comma = text.indexOf(',', start);
  return comma < 0 ? text.length : comma;
}

/** Offset just past the closing quote of the JSON string opening at `open`, or -1. */
function stringEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return -1;
}

function depthOver(value: unknown, limit: number): boolean {
  // Iterative, so the check itself cannot overflow the stack.
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d >= limit) return true;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

function getChild(container: Values | unknown[], seg: PathSegment): unknown {
  if (Array.isArray(container)) return typeof seg === 'number' ? container[seg] : undefined;
  return Object.prototype.hasOwnProperty.call(container, seg) ? container[seg as string] : undefined;
}

function setChild(container: Values | unknown[], seg: PathSegment, value: unknown): void {
  if (Array.isArray(container)) {
    const i = seg as number;
    while (container.length < i) container.push(null);
    container[i] = value;
    return;
  }
  // defineProperty, not assignment: a key named `__proto__` must stay a plain key.
  Object.defineProperty(container, seg, { value, enumerable: true, writable: true, configurable: true });
}
