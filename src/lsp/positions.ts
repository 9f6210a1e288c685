// Where things are in a values file's text, for the editor: the key path under the cursor, the
// extent of the key or value a problem points at, and the text of a key's whole entry. Offsets are
// UTF-16 indexes into the text (what the editor's documents count in); the YAML library's ranges
// are the same.

import { isMap, isScalar, isSeq, parseDocument, type Node, type Pair } from 'yaml';
import type { PathSegment } from '../values/source.ts';

export interface PathAt {
  path: PathSegment[];
  /** The cursor is on the key itself (not its value). */
  onKey: boolean;
}

const parse = (text: string) => parseDocument(text, { version: '1.2', logLevel: 'silent', uniqueKeys: false });

const within = (node: Node | null | undefined, offset: number) => !!node?.range && offset >= node.range[0] && offset <= node.range[1];

/** The key path of the deepest entry whose key or value holds `offset`; undefined outside every entry. */
export function pathAt(text: string, offset: number): PathAt | undefined {
  const doc = parse(text);
  let found: PathAt | undefined;
  const walk = (node: Node | null | undefined, path: PathSegment[]) => {
    if (isMap(node)) {
      for (const pair of node.items as Pair<Node, Node | null>[]) {
        if (!isScalar(pair.key)) continue;
        const here = [...path, String(pair.key.value)];
        if (within(pair.key, offset)) {
          found = { path: here, onKey: true };
          return;
        }
        if (within(pair.value, offset)) {
          found = { path: here, onKey: false };
          walk(pair.value, here);
          return;
        }
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        if (within(item as Node, offset)) walk(item as Node, [...path, i]);
      });
    }
  };
  walk(doc.contents as Node | null, []);
  return found;
}

/** The node (key or value) written at `path`: the key's scalar with `key`, else its value. */
function entryAt(text: string, path: readonly PathSegment[]): { pair?: Pair<Node, Node | null>; parent: Node; value: Node | null } | undefined {
  const doc = parse(text);
  let node = doc.contents as Node | null;
  let pair: Pair<Node, Node | null> | undefined;
  let parent: Node | null = null;
  for (const seg of path) {
    parent = node;
    if (typeof seg === 'number') {
      if (!isSeq(node)) return undefined;
      node = (node.items[seg] as Node | undefined) ?? null;
      pair = undefined;
      if (node === null) return undefined;
    } else {
      if (!isMap(node)) return undefined;
      pair = (node.items as Pair<Node, Node | null>[]).find((p) => isScalar(p.key) && String(p.key.value) === seg);
      if (!pair) return undefined;
      node = pair.value;
    }
  }
  return parent ? { ...(pair ? { pair } : {}), parent, value: node } : undefined;
}

/**
 * Where the key or value that starts at an offset ends (a problem's range), else the end of the
 * word there: the text is parsed once for all the offsets asked.
 */
export function extentsIn(text: string): (offset: number) => number {
  const ends = new Map<number, number>();
  const visit = (node: Node | null | undefined) => {
    if (!node?.range) return;
    if (isScalar(node)) {
      if (!ends.has(node.range[0])) ends.set(node.range[0], node.range[1]);
    } else if (isMap(node)) for (const p of node.items as Pair<Node, Node | null>[]) (visit(p.key), visit(p.value));
    else if (isSeq(node)) for (const item of node.items) visit(item as Node);
  };
  visit(parse(text).contents as Node | null);
  return (offset) => {
    const end = ends.get(offset);
    if (end !== undefined && end > offset) return end;
    const rest = /^[^\s:#,\]}]*/.exec(text.slice(offset))![0];
    return offset + Math.max(rest.length, 1);
  };
}

export const extentAt = (text: string, offset: number): number => extentsIn(text)(offset);

/** The start of the line `offset` is on. */
const lineStart = (text: string, offset: number) => text.lastIndexOf('\n', offset - 1) + 1;
/** The start of the line after the one `offset` is on (the text's end on the last line). */
const nextLine = (text: string, offset: number) => {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
};

/**
 * The text of the entry at `path` (its key, its value, the comments on its lines) as whole
 * lines, to delete it; undefined when the file does not write the path as a block map entry.
 */
export function entryLines(text: string, path: readonly PathSegment[]): { start: number; end: number } | undefined {
  const at = entryAt(text, path);
  if (!at?.pair || !isScalar(at.pair.key) || !at.pair.key.range) return undefined;
  const { parent } = at;
  // In a flow map (`{a: 1, b: 2}`) an entry is not a line of its own.
  if (isMap(parent) && parent.flow) return undefined;
  const keyStart = at.pair.key.range[0];
  const start = lineStart(text, keyStart);
  // Only an entry that begins its line (or follows a list item's dash) is deleted as whole lines.
  if (!/^\s*(?:-\s+)?$/.test(text.slice(start, keyStart))) return undefined;
  const valueEnd = at.value?.range ? at.value.range[1] : at.pair.key.range[2];
  // Trailing blank space of a block value reaches into the next line's start: stop before it.
  let last = valueEnd;
  while (last > keyStart && /\s/.test(text[last - 1]!)) last--;
  return { start, end: nextLine(text, last) };
}

/** Where a new item goes in the list at `path`, with the text to insert for `item` there; undefined when the file has no such list. */
export function listAppend(text: string, path: readonly PathSegment[], item: string): { offset: number; insert: string } | undefined {
  const at = entryAt(text, path);
  const list = at?.value;
  if (!isSeq(list) || !list.range) return undefined;
  const word = JSON.stringify(item);
  if (list.flow) {
    const close = text.lastIndexOf(']', list.range[1]);
    if (close < 0) return undefined;
    return { offset: close, insert: list.items.length > 0 ? `, ${word}` : word };
  }
  const lastItem = list.items[list.items.length - 1] as Node | undefined;
  if (!lastItem?.range) return undefined;
  const dash = text.lastIndexOf('-', lastItem.range[0]);
  const indent = text.slice(lineStart(text, dash), dash);
  let end = lastItem.range[1];
  while (end > dash && /\s/.test(text[end - 1]!)) end--;
  const after = nextLine(text, end);
  const newline = after === text.length && !text.endsWith('\n') ? '\n' : '';
  return { offset: after, insert: `${newline}${indent}- ${word}\n` };
}
