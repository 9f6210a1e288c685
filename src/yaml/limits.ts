// The limits that keep hostile YAML from exhausting memory or time, and the cheap scan that stops
// deep nesting before a parser recurses into it. Values files, manifests and the fast reader's
// choice (./read.ts) all use them.

/** Limits that keep hostile YAML from exhausting memory or time. */
export const YAML_LIMITS = {
  /** Alias expansions allowed per document (billion-laughs guard). */
  maxAliasCount: 1000,
  /** Nesting depth of collections. */
  maxDepth: 64,
  /**
   * Characters of YAML text parsed at most: a chart's values file is a few kilobytes, while 1 MiB
   * of a flow list already costs the parser seconds and hundreds of megabytes.
   */
  maxTextLength: 1024 * 1024,
  /**
   * Bound on nesting found by a cheap scan of the raw text before parsing. The parser recurses
   * once per level, so thousands of `[` would exhaust the stack; the scan over-counts a little
   * (brackets inside plain scalars), hence a bound well above maxDepth.
   */
  maxRawNesting: 256,
} as const;

/**
 * Offset where the nesting of `text` first exceeds `limit`, or -1. A single pass over the raw
 * text that tracks block indentation levels, compact `- - x` entries and flow brackets outside
 * quotes and comments. It is an estimate meant to stop pathological input before the parser
 * recurses into it, not a YAML parser.
 */
export function rawNestingOverflow(text: string, limit: number): number {
  const indents: number[] = [];
  let flow = 0;
  let quote: '"' | "'" | undefined;
  let i = 0;
  while (i < text.length) {
    let lineEnd = text.indexOf('\n', i);
    if (lineEnd < 0) lineEnd = text.length;
    let j = i;
    let block = indents.length;
    if (!quote && flow === 0) {
      while (j < lineEnd && text[j] === ' ') j++;
      const c = text[j];
      if (j < lineEnd && c !== '#' && c !== '\r') {
        const indent = j - i;
        while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
        block = indents.length;
        while (text[j] === '-' && (text[j + 1] === ' ' || j + 1 >= lineEnd)) {
          block++;
          j += 2;
          while (j < lineEnd && text[j] === ' ') j++;
          if (block > limit) return j;
        }
      }
    }
    if (block + flow > limit) return j;
    for (; j < lineEnd; j++) {
      const c = text[j]!;
      const prev = j === i ? ' ' : text[j - 1]!;
      if (quote === '"') {
        if (c === '\\') j++;
        else if (c === '"') quote = undefined;
      } else if (quote === "'") {
        if (c === "'") {
          if (text[j + 1] === "'") j++;
          else quote = undefined;
        }
      } else if (c === '#' && /\s/.test(prev)) {
        break;
      } else if ((c === '"' || c === "'") && /[\s[{,:-]/.test(prev)) {
        quote = c;
      } else if (c === '[' || c === '{') {
        if (block + ++flow > limit) return j;
      } else if ((c === ']' || c === '}') && flow > 0) {
        flow--;
      }
    }
    i = lineEnd + 1;
  }
  return -1;
}
