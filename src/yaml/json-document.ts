// A values or resource file that is one JSON document, read by JSON.parse where that gives what
// the yaml library would (./plain-yaml.ts calls it; the caller has refused the characters YAML
// reads differently).

import { MAX_DEPTH } from './block-reader.ts';

/**
 * A text that is one JSON object or array (values written by a program, `kubectl get -o json`)
 * is a YAML flow collection, which the library reads to the same data as JSON.parse, with two
 * differences: YAML refuses a key twice in one object where JSON.parse keeps the last, and the
 * plain reader leaves `__proto__` keys (and deep nesting) to the library. So the text is taken
 * only when every key it spells is a key of the result, none is `__proto__`, and it nests no
 * deeper than the block reader would. Anything else, including any text JSON.parse refuses, is
 * read as YAML.
 */
export function readJsonDocument(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const keys = jsonKeys(value, 1);
  return keys >= 0 && keys === jsonKeyTokens(text) ? value : undefined;
}

/** The keys of every object in `value` (JSON.parse's result), or -1 past MAX_DEPTH or at a `__proto__` key. */
function jsonKeys(value: object, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  let count = 0;
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else {
    if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return -1;
    items = Object.values(value);
    count = items.length;
  }
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    const n = jsonKeys(item, depth + 1);
    if (n < 0) return -1;
    count += n;
  }
  return count;
}

/**
 * How many keys a JSON text spells (strings followed by a colon), equal ones counted each time.
 * Only for text JSON.parse has accepted: outside strings it holds no quote, so each quote found
 * after a string's end opens the next string. A string's end is the next quote with an even run
 * of backslashes before it. indexOf does the scanning (no regular expression, whose backtracking
 * a string of millions of escapes would overflow).
 */
function jsonKeyTokens(text: string): number {
  let count = 0;
  for (let open = text.indexOf('"'); open >= 0; ) {
    let end = text.indexOf('"', open + 1);
    while (end >= 0 && escapedAt(text, end)) end = text.indexOf('"', end + 1);
    if (end < 0) return -1;
    let next = end + 1;
    while (isJsonSpace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) === 58 /* : */) count++;
    open = text.indexOf('"', end + 1);
  }
  return count;
}

/** Whether the character at `at` follows an odd number of backslashes. */
function escapedAt(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === 92 /* \ */) backslashes++;
  return backslashes % 2 === 1;
}

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}
