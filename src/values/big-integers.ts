// Integers past 2^53: `--set a=9007199254740993` keeps an int64 as helm does, and a JavaScript
// number would change its digits, so the set parser gives a BigInt there. Values and the objects
// rendered from them carry it as it is; these helpers are the places where a BigInt needs care:
// JSON text (JSON.stringify refuses a BigInt) and the values schema (which knows JSON types only).

/** Whether a tree of plain data holds a BigInt anywhere. */
export function hasBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasBigInt);
  for (const k in value) if (Object.hasOwn(value, k) && hasBigInt((value as Record<string, unknown>)[k])) return true;
  return false;
}

/** The largest number below 2^63. */
const BELOW_2_POW_63 = 2 ** 63 - 1024;

/**
 * A copy of plain data with every BigInt as the nearest number: what a JSON-schema validator
 * needs to see an integer. Bounds are compared on that number: the int32 bound is far below 2^53,
 * and the int64 maximum (2^63 - 1, which as a number rounds up to 2^63, past the bound) is taken
 * as the largest number below 2^63. The tree itself when it holds no BigInt.
 */
export function bigIntsAsNumbers(value: unknown): unknown {
  if (!hasBigInt(value)) return value;
  const copy = (v: unknown): unknown => {
    if (typeof v === 'bigint') return Math.min(Number(v), BELOW_2_POW_63);
    if (Array.isArray(v)) return v.map(copy);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: copy(x), enumerable: true, writable: true, configurable: true });
    return out;
  };
  return copy(value);
}

/** JSON.stringify, except that a BigInt is written as its exact digits (a JSON number). */
export function jsonText(value: unknown, space?: number): string | undefined {
  try {
    return JSON.stringify(value, null, space);
  } catch (err) {
    if (!(err instanceof TypeError) || !hasBigInt(value)) throw err;
  }
  // The digits go through a marker no other string can hold (a fresh random one), then lose the quotes.
  const mark = `bigint-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}:`;
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${mark}${v}` : v), space);
  return text?.replace(new RegExp(`"${mark}(-?\\d+)"`, 'g'), '$1');
}
