// A resource.Quantity as the API server stores it. The server parses a quantity (a string, or
// the text of a JSON number) and writes it back in its canonical form, except where the text it
// was given already is canonical for its suffix kind, which it keeps as written. The facts below
// are Kubernetes' (apimachinery's resource.Quantity; the cases in test/render/_quantity-cases.ts
// were each checked against a real API server of both versions the cluster suite runs):
//
// - Notation: an optional sign, digits with an optional fraction (`5.`, `.5`), then a suffix:
//   binary Ki Mi Gi Ti Pi Ei (powers of 1024), decimal n u m "" k M G T P E (powers of 1000),
//   or an exponent `e`/`E` with an optional sign (`1e3`, `1E-3`). Leading zeros are ignored.
//   The suffix kind (binary, decimal, exponent) is kept for the canonical form.
// - The value is exact (no floating point). Below a nano it is rounded away from zero to the
//   next nano; a binary-suffixed value is capped at 2^63-1; a decimal one is not capped.
// - The text is kept as written when it has at most 18 digits and a scale (exponent minus
//   fraction digits) of at least -9, and: for a decimal or exponent suffix, the scale is a
//   multiple of 3, the digits (fraction included, leading zeros of the integer part left out)
//   do not end in 000 and do not start with 0; for a binary suffix (Ki, Mi, Gi, Ti: the fast
//   reading needs few enough digits), there is no fraction and the number is not a multiple of
//   8. `+1`, `01`, `5.` and `1.500` stay; `0.5`, `1000m`, `1024Mi` do not.
// - Canonical form: zero is `0`. A binary value below 1024 in magnitude, or with a fraction, is
//   written as decimal. Binary: the integer divided by 1024 as often as it divides, and the
//   suffix of that power. Decimal or exponent: the digits without trailing zeros, the exponent
//   lowered to a multiple of 3 (the digits gaining zeros), then the decimal suffix of that
//   exponent (none beyond E) or, for the exponent kind, `e<n>` (nothing for 0).
// - A resource list (container limits and requests, a PVC's requests, a quota's hard limits:
//   maps of quantities in the core API) is defaulted to milli precision: a value finer than a
//   milli is rounded away from zero to the next milli and loses the text as written.

import { answerMemo } from '../answer-memos.ts';

type Kind = 'binary' | 'decimal' | 'exponent';

const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIX = new Map(Object.entries(DECIMAL).map(([s, e]) => [e, s]));
const BINARY_SUFFIX = new Map(Object.entries(BINARY).map(([s, e]) => [e / 10, s]));
const MAX = 2n ** 63n - 1n;

/** An exact value: sign × digits × 10^exp (digits ≥ 0). */
interface Exact {
  negative: boolean;
  digits: bigint;
  exp: number;
}

interface Parsed {
  text: string;
  negative: boolean;
  /** Integer digits without leading zeros ("0" when none are left). */
  num: string;
  frac: string;
  kind: Kind;
  /** Decimal exponent, or the power of 2 of a binary suffix. */
  exponent: number;
}

const NOTATION = /^([+-]?)0*(\d*)(?:\.(\d*))?([eEinumkKMGTP]*[+-]?\d*)$/;

function parse(text: string): Parsed | undefined {
  const m = NOTATION.exec(text);
  if (!m) return undefined;
  const [, sign, intDigits, frac = '', suffix] = m as unknown as [string, string, string, string | undefined, string];
  let kind: Kind;
  let exponent: number;
  if (Object.hasOwn(DECIMAL, suffix)) [kind, exponent] = ['decimal', DECIMAL[suffix]!];
  else if (Object.hasOwn(BINARY, suffix)) [kind, exponent] = ['binary', BINARY[suffix]!];
  else if (/^[eE][+-]?\d+$/.test(suffix)) [kind, exponent] = ['exponent', Number(suffix.slice(1))];
  else return undefined;
  // An exponent no quantity of a manifest has: left to the server (and lint) to judge.
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 100) return undefined;
  return { text, negative: sign === '-', num: intDigits === '' ? '0' : intDigits, frac, kind, exponent };
}

/** The text as the server keeps it, when it reads it without rewriting; else undefined. */
function keptAsWritten(p: Parsed): { text: string; exact: Exact } | undefined {
  const shifted = p.num + p.frac;
  if (p.kind === 'binary') {
    // The server's fast reading of a binary suffix: no fraction digits, few enough digits for the power.
    if (p.frac !== '') return undefined;
    const precision = 15 - p.num.length - Math.trunc((p.exponent * 3) / 10) - 1;
    if (precision < 0) return undefined;
    const value = BigInt(shifted);
    const result = value << BigInt(p.exponent);
    if (result > MAX) return undefined;
    if (value % 8n === 0n) return undefined;
    return { text: p.text, exact: { negative: p.negative, digits: result, exp: 0 } };
  }
  if (18 - shifted.length < 0) return undefined;
  const scale = p.exponent - p.frac.length;
  if (scale < -9) return undefined;
  if (scale % 3 !== 0 || shifted.endsWith('000') || shifted.startsWith('0')) return undefined;
  return { text: p.text, exact: { negative: p.negative, digits: BigInt(shifted), exp: scale } };
}

/** The exact value the server holds (nano rounding, the binary cap), and its suffix kind. */
function valueOf(p: Parsed): { exact: Exact; kind: Kind } {
  let digits = BigInt(p.num + p.frac);
  let exp = -p.frac.length;
  let kind = p.kind;
  if (p.kind === 'binary') digits <<= BigInt(p.exponent);
  else exp += p.exponent;
  const exact = roundAwayFromZero({ negative: p.negative, digits, exp }, -9);
  if (kind === 'binary') {
    if (magnitudeAbove(exact, MAX)) return { exact: { negative: exact.negative, digits: MAX, exp: 0 }, kind };
    if (belowOne(exact)) kind = 'decimal';
  }
  return { exact, kind };
}

/** The value rounded away from zero to `scale` (10^scale); unchanged when already that coarse. */
function roundAwayFromZero(x: Exact, scale: number): Exact {
  if (x.exp >= scale || x.digits === 0n) return x;
  const div = 10n ** BigInt(scale - x.exp);
  const q = x.digits / div;
  return { negative: x.negative, digits: x.digits % div === 0n ? q : q + 1n, exp: scale };
}

function magnitudeAbove(x: Exact, limit: bigint): boolean {
  return x.exp >= 0 ? x.digits * 10n ** BigInt(x.exp) > limit : x.digits > limit * 10n ** BigInt(-x.exp);
}

function belowOne(x: Exact): boolean {
  return x.digits !== 0n && (x.exp >= 0 ? false : x.digits < 10n ** BigInt(-x.exp));
}

/** The canonical text of an exact value of the given suffix kind. */
function canonical(x: Exact, kind: Kind): string {
  if (x.digits === 0n) return '0';
  const sign = x.negative ? '-' : '';
  if (kind === 'binary') {
    const integer = x.exp >= 0 ? x.digits * 10n ** BigInt(x.exp) : x.digits % 10n ** BigInt(-x.exp) === 0n ? x.digits / 10n ** BigInt(-x.exp) : undefined;
    if (integer !== undefined && integer >= 1024n) {
      let n = integer;
      let power = 0;
      while (n % 1024n === 0n) {
        n /= 1024n;
        power++;
      }
      return `${sign}${n}${BINARY_SUFFIX.get(power) ?? ''}`;
    }
    kind = 'decimal';
  }
  let digits = x.digits;
  let exp = x.exp;
  while (digits % 10n === 0n) {
    digits /= 10n;
    exp++;
  }
  const down = ((exp % 3) + 3) % 3;
  digits *= 10n ** BigInt(down);
  exp -= down;
  // A decimal exponent beyond E (10^18) has no suffix, and the servers of 1.34 and 1.37 write
  // none ("1000E" is stored as "1"); a later apimachinery writes `e21` there instead.
  const suffix = kind === 'decimal' ? (DECIMAL_SUFFIX.get(exp) ?? '') : exp === 0 ? '' : `e${exp}`;
  return `${sign}${digits}${suffix}`;
}

/** A JSON number as the text the server reads (the shortest form that reads back as the number). */
function numberText(n: number): string {
  return String(n);
}

/**
 * The quantity as the API server stores it, or the value unchanged when it is not a quantity
 * the server reads (the server refuses it; lint and validate say why). `resourceList`: the value
 * is one of a resource list's (rounded to milli precision).
 */
export function storedQuantity(value: unknown, resourceList: boolean): unknown {
  // A text is worked out once (values/no-effect writes the same objects again for each key).
  if (typeof value !== 'string') return workedOut(value, resourceList);
  const memo = resourceList ? STORED_IN_LIST : STORED;
  let out = memo.get(value);
  if (out === undefined) {
    if (memo.size >= 10_000) memo.clear();
    memo.set(value, (out = workedOut(value, resourceList)));
  }
  return out;
}

const STORED = answerMemo('quantities', new Map<string, unknown>());
const STORED_IN_LIST = answerMemo('quantities in resource lists', new Map<string, unknown>());

function workedOut(value: unknown, resourceList: boolean): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return value;
  if (typeof value !== 'string' && typeof value !== 'number') return value;
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  if (text === '') return value;
  if (text === '0') return '0';
  const p = parse(text);
  if (!p) return value;
  const kept = keptAsWritten(p);
  if (kept) {
    if (!resourceList || kept.exact.exp >= -3) return kept.text;
    return canonical(roundAwayFromZero(kept.exact, -3), p.kind);
  }
  const { exact, kind } = valueOf(p);
  return canonical(resourceList ? roundAwayFromZero(exact, -3) : exact, kind);
}
