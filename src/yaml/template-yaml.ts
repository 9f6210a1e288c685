// Reads template output (src/render/template-program.ts) without the general parser: block maps
// and lists whose leaves are plain words written in a template (`kind: Service`) or JSON printed
// by the `json` helper. readTemplateLines reads a template run's lines directly, its printed
// values kept as data, and keeps what it works out of the static lines on them (each run of a
// template shares them). Outside this dialect it returns undefined and ./read.ts has the yaml
// library read the run's text.

import { Reader, Unsupported, type Dialect, type Line } from './block-reader.ts';

/** A line of a template run: a NUL and an index stand for a printed value. */
export type TemplateLine = Line;

const PLAIN_WORD = /^[A-Za-z0-9_./@$()-][^#:]*$/;

const TEMPLATE: Dialect = { leaf: scalar, plainKey: (k) => k, afterKey: (t) => t, refuse: /\t/, rootAtZero: false, literalBlocks: false };

/**
 * The documents of a template run (src/render/template-program.ts) read from its lines, without
 * text: a hole (NUL + index) is read as the printed value itself. Undefined when the lines leave
 * the subset.
 */
export function readTemplateLines(docs: readonly TemplateLine[][], values: readonly unknown[]): unknown[] | undefined {
  try {
    return docs.filter((d) => d.length > 0).map((lines) => new Reader([...lines], TEMPLATE, values, true).document());
  } catch (err) {
    if (err instanceof Unsupported || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** A JSON string without escapes or control characters: its value is the text between the quotes. */
const SIMPLE_JSON_STRING = /^"[^"\\\u0000-\u001f]*"$/;

/** A leaf: JSON from the `json` helper, or a plain word written in a template. */
function scalar(text: string): unknown {
  const c = text[0];
  if (c === '"' && SIMPLE_JSON_STRING.test(text)) return text.slice(1, -1);
  if (c === '{' || c === '[' || c === '"') return JSON.parse(text);
  if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  // Other number spellings (01, .5, +1, 1.) are left to the full parser's core schema.
  if (/^[-+.]?\d/.test(text)) throw new Unsupported();
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null' || text === '~') return null;
  if (!PLAIN_WORD.test(text) || text.includes(' #') || /^(True|False|TRUE|FALSE|Null|NULL|\.inf|\.nan|0x|0o)/i.test(text)) throw new Unsupported();
  return text;
}

