// Where a character of a scalar's value sits in the scalar as written: a plain scalar is its
// value, a single-quoted one doubles its quotes, a double-quoted one writes escapes (`\u200B`,
// `\x41`, `\_`, `\"` …) that are one character of the value each.

/**
 * Offset in `source` (the text of a one-line scalar as written, quotes included, and anything
 * after it) of the UTF-16 unit `index` of its value; undefined when the text is not such a scalar
 * or is shorter.
 */
export function scalarSourceOffset(source: string, index: number): number | undefined {
  const quote = source[0];
  if (quote !== '"' && quote !== "'") return index < source.length ? index : undefined;
  let at = 1;
  for (let i = 0; at < source.length; i++) {
    const c = source[at]!;
    if (c === '\n' || c === '\r') return undefined;
    let width = 1; // characters of the source this unit of the value is written with
    let units = 1; // units of the value they stand for
    if (c === quote) {
      if (quote === '"' || source[at + 1] !== "'") return undefined; // the scalar ended first
      width = 2;
    } else if (quote === '"' && c === '\\') {
      const hex = { x: 2, u: 4, U: 8 }[source[at + 1] ?? ''];
      width = 2 + (hex ?? 0);
      if (hex !== undefined) units = Number.parseInt(source.slice(at + 2, at + width), 16) > 0xffff ? 2 : 1;
    }
    if (index < i + units) return at;
    i += units - 1;
    at += width;
  }
  return undefined;
}
