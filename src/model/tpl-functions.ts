// The functions of the values template evaluator (tpl.ts): the part of Go templates', Helm's and
// Sprig's function library that charts' `extraObjects` use, with the behaviour Helm gives them
// (measured with `helm template`, see test/render/tpl-functions.test.ts). Output stays
// deterministic: functions that read the clock, draw random numbers, generate keys or reach the
// cluster or the network are refused with the reason, never approximated.

import { sha256Hex } from './checksum.ts';
import { jsonText } from '../values/big-integers.ts';
import { cloneTree } from '../values/merge.ts';
import { Document, parse as parseYaml, Scalar, visit } from 'yaml';

/** What a function may ask of the evaluator. */
export interface CallContext {
  /** The function's name as written. */
  name: string;
  /** Stops the evaluation with a message at the call. */
  fail(message: string): never;
  /** `include NAME CTX`: a registered template (a TplError when unknown). */
  include(name: string, ctx: unknown): string;
  /** `tpl TEXT CTX`: evaluates a text as a template. */
  tpl(text: string, ctx: unknown): string;
}

export type TplFunction = (args: unknown[], c: CallContext) => unknown;

/** Functions refused on purpose, with the reason: each would make two renders of the same input differ, or needs the cluster. */
export const REFUSED_FUNCTIONS: Readonly<Record<string, string>> = Object.fromEntries([
  ...['now', 'date', 'dateInZone', 'date_in_zone', 'dateModify', 'date_modify', 'ago', 'htmlDate', 'htmlDateInZone', 'unixEpoch', 'toDate', 'mustToDate', 'duration', 'durationRound'].map((n) => [n, 'it reads the clock, so two renders of the same values would differ']),
  ...['rand', 'randAlphaNum', 'randAlpha', 'randNumeric', 'randAscii', 'randBytes', 'randInt', 'shuffle', 'uuidv4'].map((n) => [n, 'it draws random values, so two renders of the same values would differ']),
  ...['genCA', 'genCAWithKey', 'genPrivateKey', 'genSelfSignedCert', 'genSelfSignedCertWithKey', 'genSignedCert', 'genSignedCertWithKey', 'htpasswd', 'bcrypt', 'encryptAES'].map((n) => [n, 'it generates keys or salts at random, so two renders would differ; create the Secret outside the chart']),
  ['lookup', 'it reads the cluster, and agentplat renders without one'],
  ['getHostByName', 'it queries DNS, and a render reads no network'],
  ...['env', 'expandenv'].map((n) => [n, 'Helm removes it too: a render does not read the environment']),
]);

// ---- Go and Sprig value semantics ------------------------------------------------------------

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Go's truth: false, 0, nil, "" and empty lists and maps are false. Also Sprig's `empty`. */
export function truthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isMap(v)) return Object.keys(v).length > 0;
  return true;
}

/** Sprig's strval: how a value reads as text (a string as is, nil as ""). */
export function strval(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  // A BigInt is an int64 past 2^53 (--set): its exact digits, as Go prints an int64.
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return String(v);
  return goPrint(v);
}

/** Go's %v of lists and maps (`[a b]`, `map[a:1 b:2]`, keys sorted). */
function goPrint(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goPrint).join(' ')}]`;
  if (isMap(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${goPrint(v[k])}`).join(' ')}]`;
  if (v === undefined || v === null) return '<nil>';
  return strval(v);
}

// A BigInt (an int64 past 2^53 from --set) enters arithmetic as the nearest number.
function toInt(v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? Math.trunc(n) : 0;
  }
  return 0;
}

const isBig = (v: unknown): v is bigint => typeof v === 'bigint';

/** An integer as a BigInt, for int64 arithmetic with a BigInt operand. */
function toBig(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  const n = toInt(v);
  return Number.isFinite(n) ? BigInt(n) : 0n;
}

/** An int64 result as Go computes it (wrapping past the bounds): a number while it holds the digits. */
function int64Of(n: bigint): number | bigint {
  const w = BigInt.asIntN(64, n);
  return w >= BigInt(Number.MIN_SAFE_INTEGER) && w <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(w) : w;
}

function toFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

function list(v: unknown, c: CallContext): unknown[] {
  if (Array.isArray(v)) return v;
  if (v === undefined || v === null) return [];
  return c.fail(`${c.name} needs a list, got ${kindOf(v)}`);
}

function dict(v: unknown, c: CallContext): Record<string, unknown> {
  if (isMap(v)) return v;
  return c.fail(`${c.name} needs a map (dict), got ${kindOf(v)}`);
}

function kindOf(v: unknown): string {
  if (v === undefined || v === null) return 'nil';
  if (Array.isArray(v)) return 'a list';
  if (isMap(v)) return 'a map';
  return `a ${typeof v}`;
}

function arity(c: CallContext, args: unknown[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    c.fail(`${c.name} takes ${want} argument${min === 1 && max === 1 ? '' : 's'}, got ${args.length}`);
  }
}

/** A function of a fixed number of arguments. */
const fixed = (n: number, fn: (a: unknown[], c: CallContext) => unknown): TplFunction => (a, c) => {
  arity(c, a, n);
  return fn(a, c);
};
/** A function of one string (the last argument in a pipeline). */
const str1 = (fn: (s: string) => unknown): TplFunction => fixed(1, (a) => fn(strval(a[0])));

function deepEqual(a: unknown, b: unknown): boolean {
  return jsonText(canonical(a)) === jsonText(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isMap(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v ?? null;
}

function compare(a: unknown, b: unknown, c: CallContext): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  // A BigInt (an int64 past 2^53) compares exactly with another integer.
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint') && (isBig(a) || isBig(b))) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return c.fail(`${c.name}: incompatible types for comparison (${kindOf(a)} and ${kindOf(b)})`);
}

// ---- encodings ---------------------------------------------------------------------------------

/**
 * Helm's toYaml (go-yaml v2 through sigs.k8s.io/yaml): keys sorted, lists at their key's indent,
 * strings that would read back as another type under YAML 1.1 (`"2"`, `"yes"`, `"n"`, `""`)
 * double-quoted, other strings that cannot be plain single-quoted, multi-line strings as literal
 * blocks, long plain lines folded at 80 columns, no trailing newline; `null` for nil.
 */
export function toYaml(v: unknown): string {
  if (v === undefined) return 'null';
  // A multi-line string alone: go-yaml indents the block by two, as it would under a key.
  if (typeof v === 'string' && v.includes('\n')) return toYaml({ x: v }).slice('x: '.length).replace(/\n {2}/g, '\n  ');
  const doc = new Document(canonical(v), { version: '1.1' });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      const s = node.value;
      if (s.includes('\n')) node.type = Scalar.BLOCK_LITERAL;
      else if (readsAsOtherType(s)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  const text = doc.toString({ indentSeq: false, lineWidth: 80, minContentWidth: 0, singleQuote: true, blockQuote: 'literal' });
  return text.replace(/\n$/, '');
}

/** Whether a string would read back as something else than that string under YAML 1.1 (go-yaml v2's resolver). */
function readsAsOtherType(s: string): boolean {
  if (s === '') return true;
  if (/^(y|Y|n|N|~|null|Null|NULL)$/.test(s)) return true;
  try {
    const back = parseYaml(s, { version: '1.1' }) as unknown;
    // Only a scalar of another type counts: text that parses as a map, a list or a comment cannot be plain at all.
    return typeof back === 'number' || typeof back === 'boolean' || typeof back === 'bigint' || back instanceof Date;
  } catch {
    return false;
  }
}

/** Go's json.Marshal: keys sorted, and `<`, `>`, `&` escaped as Go does for HTML safety. */
export function toJson(v: unknown, indent?: number): string {
  const text = jsonText(canonical(v), indent) ?? 'null';
  return text.replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function fromYaml(text: string): unknown {
  try {
    const v = parseYaml(text, { version: '1.2' }) as unknown;
    return isMap(v) ? v : {};
  } catch (err) {
    return { Error: (err as Error).message.split('\n')[0] };
  }
}

// ---- printf ------------------------------------------------------------------------------------

/** Go's fmt.Sprintf for the verbs charts use: %s %d %v %q %t %f (with precision) %x %X %%. */
export function sprintf(format: string, args: unknown[], c: CallContext): string {
  let i = 0;
  return format.replace(/%([-+ 0#]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])/g, (_whole, flags: string, width: string | undefined, prec: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) return `%!${verb}(MISSING)`;
    const a = args[i++];
    let out: string;
    switch (verb) {
      case 's':
      case 'v':
        out = a === undefined || a === null ? (verb === 'v' ? '<nil>' : '%!s(<nil>)') : typeof a === 'string' ? a : goPrint(a);
        break;
      case 'd':
        if (typeof a === 'bigint') out = String(a);
        else if (typeof a !== 'number') return `%!d(${typeof a === 'string' ? 'string' : kindOf(a)}=${strval(a)})`;
        else out = String(Math.trunc(a));
        break;
      case 'q':
        out = JSON.stringify(strval(a));
        break;
      case 't':
        out = String(a === true);
        break;
      case 'f':
        out = toFloat(a).toFixed(prec === undefined ? 6 : Number(prec));
        break;
      case 'x':
      case 'X': {
        const s = typeof a === 'number' ? Math.trunc(a).toString(16) : typeof a === 'bigint' ? a.toString(16) : Buffer.from(strval(a), 'utf8').toString('hex');
        out = verb === 'X' ? s.toUpperCase() : s;
        break;
      }
      default:
        return c.fail(`printf: the verb %${verb} is not supported (supported: %s %d %v %q %t %f %x %X %%)`);
    }
    if (width !== undefined && out.length < Number(width)) {
      const pad = (flags.includes('0') && !flags.includes('-') && verb !== 's' ? '0' : ' ').repeat(Number(width) - out.length);
      out = flags.includes('-') ? out + pad : pad + out;
    }
    return out;
  });
}

// ---- semver (Masterminds/semver, as Helm's semverCompare) --------------------------------------

interface Version {
  nums: [number, number, number];
  pre: string[];
}

function parseVersion(text: string): Version | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!m) return undefined;
  return { nums: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], pre: m[4] ? m[4].split('.') : [] };
}

function cmpVersion(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a.nums[i] !== b.nums[i]) return a.nums[i]! - b.nums[i]!;
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Whether `version` meets `constraint` (`>=1.21.0-0`, `^1.2`, `~1.2.3`, `1.2.x`, `>1 <3`, `a || b`).
 * As in Masterminds/semver: a version with a pre-release (`1.29.3-gke.1`) meets a constraint only
 * when that constraint names a pre-release too, hence charts' `>=1.21.0-0`.
 */
export function semverMatches(constraint: string, version: string, c: CallContext): boolean {
  const v = parseVersion(version);
  if (!v) return c.fail(`semverCompare: ${JSON.stringify(version)} is not a version`);
  return constraint.split('||').some((alt) => {
    const parts = alt.replace(/,/g, ' ').trim().split(/\s+/).filter(Boolean);
    // `1.2 - 1.4` (a hyphen range).
    const joined: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      if (parts[i + 1] === '-' && parts[i + 2] !== undefined) {
        joined.push(`>=${parts[i]}`, `<=${parts[i + 2]}`);
        i += 2;
      } else joined.push(parts[i]!);
    }
    return joined.every((p) => meets(p, v, c));
  });
}

function meets(part: string, v: Version, c: CallContext): boolean {
  const m = /^(=|!=|>=|=>|<=|=<|>|<|~>|~|\^)?\s*v?(.*)$/.exec(part)!;
  const op = m[1] ?? '=';
  const text = m[2]!;
  const wild = text.split(/[.-]/).slice(0, 3).map((s) => /^[xX*]$/.test(s));
  const given = text.split('-')[0]!.split('.').filter((s) => s !== '' && !/^[xX*]$/.test(s)).length;
  const target = parseVersion(text.replace(/\.[xX*]/g, '.0').replace(/^[xX*]$/, '0'));
  if (!target) return c.fail(`semverCompare: ${JSON.stringify(part)} is not a version constraint`);
  if (v.pre.length > 0 && target.pre.length === 0) return false;
  const d = cmpVersion(v, target);
  const [maj, min] = target.nums;
  const upTo = (n: number): Version => ({ nums: n === 0 ? [maj + 1, 0, 0] : [maj, min + 1, 0], pre: [] });
  const below = (u: Version) => cmpVersion({ ...v, pre: [] }, u) < 0;
  if (wild.some(Boolean) || given < 3) {
    if (op === '=' || op === '~' || op === '~>') return d >= 0 && below(upTo(given <= 1 ? 0 : 1));
  }
  switch (op) {
    case '=':
      return d === 0;
    case '!=':
      return d !== 0;
    case '>':
      // `>1.4` is above every 1.4.x.
      return given < 3 ? !below(upTo(given <= 1 ? 0 : 1)) : d > 0;
    case '<':
      return d < 0;
    case '>=':
    case '=>':
      return d >= 0;
    case '<=':
    case '=<':
      // `<=1.4` takes in every 1.4.x.
      return given < 3 ? below(upTo(given <= 1 ? 0 : 1)) : d <= 0;
    case '~':
    case '~>':
      return d >= 0 && below(upTo(1));
    case '^':
      return d >= 0 && below(maj > 0 || given === 1 ? upTo(0) : { nums: min > 0 || given === 2 ? [0, min + 1, 0] : [0, 0, target.nums[2] + 1], pre: [] });
    default:
      return c.fail(`semverCompare: unknown operator in ${JSON.stringify(part)}`);
  }
}

// ---- the table -----------------------------------------------------------------------------------

function indent(n: unknown, s: unknown): string {
  const pad = ' '.repeat(Math.max(0, toInt(n)));
  return pad + strval(s).replace(/\n/g, `\n${pad}`);
}

function quoteAll(args: unknown[], q: (s: string) => string): string {
  return args.filter((a) => a !== undefined && a !== null).map((a) => q(strval(a))).join(' ');
}

function regex(pattern: unknown, c: CallContext): RegExp {
  try {
    return new RegExp(strval(pattern), 'gu');
  } catch (err) {
    return c.fail(`${c.name}: ${(err as Error).message}`);
  }
}

function mergeInto(dst: Record<string, unknown>, src: Record<string, unknown>, overwrite: boolean): void {
  for (const [k, v] of Object.entries(src)) {
    const cur = dst[k];
    if (isMap(cur) && isMap(v)) mergeInto(cur, v, overwrite);
    else if (!(k in dst) || (overwrite ? true : cur === undefined || cur === null)) dst[k] = isMap(v) ? cloneTree(v) : v;
  }
}

export const FUNCTIONS: Readonly<Record<string, TplFunction>> = {
  // Helm
  include: fixed(2, (a, c) => (typeof a[0] === 'string' ? c.include(a[0], a[1]) : c.fail('include needs a template name in quotes'))),
  tpl: fixed(2, (a, c) => c.tpl(strval(a[0]), a[1])),
  required: fixed(2, (a, c) => (a[1] === undefined || a[1] === null || a[1] === '' ? c.fail(strval(a[0])) : a[1])),
  fail: fixed(1, (a, c) => c.fail(strval(a[0]))),
  toYaml: fixed(1, (a) => toYaml(a[0])),
  toJson: fixed(1, (a) => toJson(a[0])),
  toPrettyJson: fixed(1, (a) => toJson(a[0], 2)),
  toRawJson: fixed(1, (a) => jsonText(canonical(a[0]))),
  fromYaml: str1(fromYaml),
  fromJson: str1((s) => {
    try {
      const v = JSON.parse(s) as unknown;
      return isMap(v) ? v : {};
    } catch (err) {
      return { Error: (err as Error).message };
    }
  }),
  fromYamlArray: str1((s) => {
    const v = parseYaml(s, { version: '1.2' }) as unknown;
    return Array.isArray(v) ? v : [];
  }),
  // Go templates
  print: (a) => a.map((x, i) => (i > 0 && typeof x !== 'string' && typeof a[i - 1] !== 'string' ? ' ' : '') + strval(x)).join(''),
  printf: (a, c) => (a.length === 0 ? c.fail('printf needs a format') : sprintf(strval(a[0]), a.slice(1), c)),
  println: (a) => `${a.map(strval).join(' ')}\n`,
  len: fixed(1, (a, c) => (typeof a[0] === 'string' ? [...Buffer.from(a[0])].length : Array.isArray(a[0]) ? a[0].length : isMap(a[0]) ? Object.keys(a[0]).length : c.fail(`len of ${kindOf(a[0])}`))),
  index: (a, c) => {
    arity(c, a, 1, Infinity);
    let cur = a[0];
    for (const k of a.slice(1)) {
      if (Array.isArray(cur)) cur = cur[toInt(k)];
      else if (isMap(cur)) cur = Object.hasOwn(cur, strval(k)) ? cur[strval(k)] : undefined;
      else if (cur === undefined || cur === null) return undefined;
      else return c.fail(`index of ${kindOf(cur)}`);
    }
    return cur;
  },
  not: fixed(1, (a) => !truthy(a[0])),
  and: (a, c) => {
    arity(c, a, 1, Infinity);
    for (const x of a) if (!truthy(x)) return x;
    return a[a.length - 1];
  },
  or: (a, c) => {
    arity(c, a, 1, Infinity);
    for (const x of a) if (truthy(x)) return x;
    return a[a.length - 1];
  },
  eq: (a, c) => {
    arity(c, a, 2, Infinity);
    return a.slice(1).some((b) => deepEqual(a[0], b));
  },
  ne: fixed(2, (a) => !deepEqual(a[0], a[1])),
  lt: fixed(2, (a, c) => compare(a[0], a[1], c) < 0),
  le: fixed(2, (a, c) => compare(a[0], a[1], c) <= 0),
  gt: fixed(2, (a, c) => compare(a[0], a[1], c) > 0),
  ge: fixed(2, (a, c) => compare(a[0], a[1], c) >= 0),
  // defaults and conditions
  default: (a, c) => {
    arity(c, a, 1, 2);
    return a.length < 2 || !truthy(a[1]) ? a[0] : a[1];
  },
  empty: fixed(1, (a) => !truthy(a[0])),
  coalesce: (a) => a.find(truthy),
  ternary: fixed(3, (a) => (a[2] === true ? a[0] : a[1])),
  // strings
  quote: (a) => quoteAll(a, (s) => JSON.stringify(s)),
  squote: (a) => quoteAll(a, (s) => `'${s}'`),
  lower: str1((s) => s.toLowerCase()),
  upper: str1((s) => s.toUpperCase()),
  title: str1((s) => s.replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_m, p: string, l: string) => p + l.toUpperCase())),
  untitle: str1((s) => s.replace(/(^|\s)(\p{L})/gu, (_m, p: string, l: string) => p + l.toLowerCase())),
  trim: str1((s) => s.trim()),
  trimAll: fixed(2, (a) => trimSet(strval(a[1]), strval(a[0]), true, true)),
  trimPrefix: fixed(2, (a) => (strval(a[1]).startsWith(strval(a[0])) ? strval(a[1]).slice(strval(a[0]).length) : strval(a[1]))),
  trimSuffix: fixed(2, (a) => (strval(a[0]) !== '' && strval(a[1]).endsWith(strval(a[0])) ? strval(a[1]).slice(0, -strval(a[0]).length) : strval(a[1]))),
  trunc: fixed(2, (a) => {
    const n = toInt(a[0]);
    const s = strval(a[1]);
    return n >= 0 ? s.slice(0, n) : s.slice(Math.max(0, s.length + n));
  }),
  replace: fixed(3, (a) => strval(a[2]).split(strval(a[0])).join(strval(a[1]))),
  repeat: fixed(2, (a) => strval(a[1]).repeat(Math.max(0, toInt(a[0])))),
  substr: fixed(3, (a) => {
    const s = strval(a[2]);
    const start = toInt(a[0]);
    const end = toInt(a[1]);
    return start < 0 ? s.slice(0, end) : end < 0 || end > s.length ? s.slice(start) : s.slice(start, end);
  }),
  nospace: str1((s) => s.replace(/\s+/g, '')),
  contains: fixed(2, (a) => strval(a[1]).includes(strval(a[0]))),
  hasPrefix: fixed(2, (a) => strval(a[1]).startsWith(strval(a[0]))),
  hasSuffix: fixed(2, (a) => strval(a[1]).endsWith(strval(a[0]))),
  cat: (a) => a.filter((x) => x !== undefined && x !== null).map(strval).join(' '),
  indent: fixed(2, (a) => indent(a[0], a[1])),
  nindent: fixed(2, (a) => `\n${indent(a[0], a[1])}`),
  toString: fixed(1, (a) => strval(a[0])),
  toStrings: fixed(1, (a, c) => list(a[0], c).map(strval)),
  snakecase: str1((s) => words(s).join('_').toLowerCase()),
  kebabcase: str1((s) => words(s).join('-').toLowerCase()),
  camelcase: str1((s) => s.split('_').map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : '')).join('')),
  split: fixed(2, (a) => Object.fromEntries(strval(a[1]).split(strval(a[0])).map((p, i) => [`_${i}`, p]))),
  splitList: fixed(2, (a) => strval(a[1]).split(strval(a[0]))),
  join: fixed(2, (a, c) => list(a[1], c).filter((x) => x !== undefined && x !== null).map(strval).join(strval(a[0]))),
  sortAlpha: fixed(1, (a, c) => list(a[0], c).map(strval).sort()),
  regexMatch: fixed(2, (a, c) => regex(a[0], c).test(strval(a[1]))),
  regexFind: fixed(2, (a, c) => strval(a[1]).match(regex(a[0], c))?.[0] ?? ''),
  regexFindAll: fixed(3, (a, c) => {
    const all = strval(a[1]).match(regex(a[0], c)) ?? [];
    const n = toInt(a[2]);
    return n < 0 ? all : all.slice(0, n);
  }),
  regexReplaceAll: fixed(3, (a, c) => strval(a[1]).replace(regex(a[0], c), strval(a[2]).replace(/\$\{(\w+)\}|\$(\d+)/g, (_m, n1: string, n2: string) => `$${n1 ?? n2}`))),
  regexReplaceAllLiteral: fixed(3, (a, c) => strval(a[1]).replace(regex(a[0], c), () => strval(a[2]))),
  // encodings and digests
  b64enc: str1((s) => Buffer.from(s, 'utf8').toString('base64')),
  b64dec: str1((s) => (/^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0 ? Buffer.from(s, 'base64').toString('utf8') : 'illegal base64 data at input byte 0')),
  b32enc: str1((s) => base32(Buffer.from(s, 'utf8'))),
  sha256sum: str1(sha256Hex),
  // node:crypto only when a template asks for these (model/checksum.ts says why)
  sha1sum: str1((s) => process.getBuiltinModule('node:crypto').createHash('sha1').update(s).digest('hex')),
  sha512sum: str1((s) => process.getBuiltinModule('node:crypto').createHash('sha512').update(s).digest('hex')),
  adler32sum: str1((s) => String(adler32(Buffer.from(s, 'utf8')))),
  // numbers
  int: fixed(1, (a) => (typeof a[0] === 'bigint' ? a[0] : toInt(a[0]))),
  int64: fixed(1, (a) => (typeof a[0] === 'bigint' ? a[0] : toInt(a[0]))),
  atoi: fixed(1, (a) => toInt(a[0])),
  float64: fixed(1, (a) => toFloat(a[0])),
  add: (a) => (a.some(isBig) ? int64Of(a.reduce<bigint>((s, x) => s + toBig(x), 0n)) : a.reduce<number>((s, x) => s + toInt(x), 0)),
  add1: fixed(1, (a) => (isBig(a[0]) ? int64Of(a[0] + 1n) : toInt(a[0]) + 1)),
  sub: fixed(2, (a) => (a.some(isBig) ? int64Of(toBig(a[0]) - toBig(a[1])) : toInt(a[0]) - toInt(a[1]))),
  mul: (a) => (a.some(isBig) ? int64Of(a.reduce<bigint>((s, x) => s * toBig(x), 1n)) : a.reduce<number>((s, x) => s * toInt(x), 1)),
  div: fixed(2, (a, c) => (toInt(a[1]) === 0 ? c.fail('div: division by zero') : a.some(isBig) ? int64Of(toBig(a[0]) / toBig(a[1])) : Math.trunc(toInt(a[0]) / toInt(a[1])))),
  mod: fixed(2, (a, c) => (toInt(a[1]) === 0 ? c.fail('mod: division by zero') : a.some(isBig) ? int64Of(toBig(a[0]) % toBig(a[1])) : toInt(a[0]) % toInt(a[1]))),
  max: (a, c) => (arity(c, a, 1, Infinity), Math.max(...a.map(toInt))),
  min: (a, c) => (arity(c, a, 1, Infinity), Math.min(...a.map(toInt))),
  floor: fixed(1, (a) => Math.floor(toFloat(a[0]))),
  ceil: fixed(1, (a) => Math.ceil(toFloat(a[0]))),
  round: (a, c) => {
    arity(c, a, 2, 3);
    const p = 10 ** toInt(a[1]);
    return Math.round(toFloat(a[0]) * p) / p;
  },
  until: fixed(1, (a) => Array.from({ length: Math.max(0, toInt(a[0])) }, (_x, i) => i)),
  untilStep: fixed(3, (a) => {
    const out: number[] = [];
    const [start, stop, step] = a.map(toInt) as [number, number, number];
    if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
    else if (step < 0) for (let i = start; i > stop; i += step) out.push(i);
    return out;
  }),
  // lists
  list: (a) => [...a],
  tuple: (a) => [...a],
  first: fixed(1, (a, c) => list(a[0], c)[0]),
  last: fixed(1, (a, c) => list(a[0], c).at(-1)),
  rest: fixed(1, (a, c) => list(a[0], c).slice(1)),
  initial: fixed(1, (a, c) => list(a[0], c).slice(0, -1)),
  append: fixed(2, (a, c) => [...list(a[0], c), a[1]]),
  push: fixed(2, (a, c) => [...list(a[0], c), a[1]]),
  prepend: fixed(2, (a, c) => [a[1], ...list(a[0], c)]),
  concat: (a, c) => a.flatMap((x) => list(x, c)),
  uniq: fixed(1, (a, c) => list(a[0], c).filter((x, i, all) => all.findIndex((y) => deepEqual(x, y)) === i)),
  has: fixed(2, (a, c) => list(a[1], c).some((x) => deepEqual(x, a[0]))),
  without: (a, c) => {
    arity(c, a, 1, Infinity);
    return list(a[0], c).filter((x) => !a.slice(1).some((w) => deepEqual(x, w)));
  },
  compact: fixed(1, (a, c) => list(a[0], c).filter(truthy)),
  reverse: fixed(1, (a, c) => [...list(a[0], c)].reverse()),
  slice: (a, c) => {
    arity(c, a, 1, 3);
    const l = list(a[0], c);
    return l.slice(a[1] === undefined ? 0 : toInt(a[1]), a[2] === undefined ? l.length : toInt(a[2]));
  },
  // dicts
  dict: (a) => {
    const out: Record<string, unknown> = {};
    // An odd count gives the last key the empty string, as Sprig does.
    for (let i = 0; i < a.length; i += 2) out[strval(a[i])] = i + 1 < a.length ? a[i + 1] : '';
    return out;
  },
  get: fixed(2, (a, c) => {
    const d = dict(a[0], c);
    const k = strval(a[1]);
    return Object.hasOwn(d, k) ? d[k] : '';
  }),
  set: fixed(3, (a, c) => {
    const d = dict(a[0], c);
    d[strval(a[1])] = a[2];
    return d;
  }),
  unset: fixed(2, (a, c) => {
    const d = dict(a[0], c);
    delete d[strval(a[1])];
    return d;
  }),
  hasKey: fixed(2, (a, c) => Object.hasOwn(dict(a[0], c), strval(a[1]))),
  keys: (a, c) => a.flatMap((d) => Object.keys(dict(d, c))).sort(),
  values: fixed(1, (a, c) => {
    const d = dict(a[0], c);
    return Object.keys(d).sort().map((k) => d[k]);
  }),
  pick: (a, c) => {
    const d = dict(a[0], c);
    const ks = a.slice(1).map(strval);
    return Object.fromEntries(Object.entries(d).filter(([k]) => ks.includes(k)));
  },
  omit: (a, c) => {
    const d = dict(a[0], c);
    const ks = a.slice(1).map(strval);
    return Object.fromEntries(Object.entries(d).filter(([k]) => !ks.includes(k)));
  },
  pluck: (a, c) => {
    arity(c, a, 1, Infinity);
    return a.slice(1).flatMap((d) => (isMap(d) && Object.hasOwn(d, strval(a[0])) ? [d[strval(a[0])]] : []));
  },
  merge: (a, c) => {
    arity(c, a, 1, Infinity);
    const dst = dict(a[0], c);
    for (const s of a.slice(1)) mergeInto(dst, dict(s, c), false);
    return dst;
  },
  mergeOverwrite: (a, c) => {
    arity(c, a, 1, Infinity);
    const dst = dict(a[0], c);
    for (const s of a.slice(1)) mergeInto(dst, dict(s, c), true);
    return dst;
  },
  deepCopy: fixed(1, (a) => cloneTree(a[0])),
  // types
  kindOf: fixed(1, (a) => goKind(a[0])),
  kindIs: fixed(2, (a) => goKind(a[1]) === strval(a[0])),
  typeOf: fixed(1, (a) => goType(a[0])),
  typeIs: fixed(2, (a) => goType(a[1]) === strval(a[0])),
  // versions
  semverCompare: fixed(2, (a, c) => semverMatches(strval(a[0]), strval(a[1]), c)),
};

/** Go's reflect kind of a value as Helm holds values. */
function goKind(v: unknown): string {
  if (v === undefined || v === null) return 'invalid';
  if (Array.isArray(v)) return 'slice';
  if (isMap(v)) return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float64';
  // Helm holds a --set integer as an int64.
  if (typeof v === 'bigint') return 'int64';
  return typeof v === 'boolean' ? 'bool' : 'string';
}

/** Go's type name of a value as Helm holds values. */
function goType(v: unknown): string {
  const kind = goKind(v);
  return kind === 'slice' ? '[]interface {}' : kind === 'map' ? 'map[string]interface {}' : kind === 'invalid' ? '<nil>' : kind;
}

function trimSet(s: string, cutset: string, left: boolean, right: boolean): string {
  const set = new Set([...cutset]);
  const chars = [...s];
  let i = 0;
  let j = chars.length;
  while (left && i < j && set.has(chars[i]!)) i++;
  while (right && j > i && set.has(chars[j - 1]!)) j--;
  return chars.slice(i, j).join('');
}

function words(s: string): string[] {
  return s
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean);
}

function base32(b: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of b) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}

function adler32(b: Buffer): number {
  let a = 1;
  let s = 0;
  for (const byte of b) {
    a = (a + byte) % 65521;
    s = (s + a) % 65521;
  }
  return ((s << 16) | a) >>> 0;
}
