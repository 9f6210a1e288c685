// A values layer with the means to point back at where each key was written.
// YAML text keeps its parsed Document so a path maps to a line and column; command-line
// flags keep the column of each assignment inside the flag's argument.

import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { Problem } from '../lint/problem.ts';

export type PathSegment = string | number;

export interface Location {
  file: string;
  line?: number;
  column?: number;
  excerpt?: string;
}

export interface ValuesSource {
  /** As shown to the user: the file path as given, `<stdin>`, `--set #2`, `defaults (revision B)`. */
  readonly name: string;
  /** Plain data of this layer (a map at the top). */
  readonly data: Record<string, unknown>;
  /** Where `path` was written in this layer, or undefined when this layer does not set it. */
  locate(path: readonly PathSegment[]): Location | undefined;
}

/** Limits that keep hostile YAML from exhausting memory or time. */
export const YAML_LIMITS = {
  /** Alias expansions allowed per document (billion-laughs guard). */
  maxAliasCount: 1000,
  /** Nesting depth of collections. */
  maxDepth: 64,
} as const;

export interface ParsedValues {
  source?: ValuesSource;
  problems: Problem[];
}

/** Parses one values document. Problems carry `file`, line and column; no exception escapes. */
export function parseValuesText(text: string, name: string): ParsedValues {
  const problems: Problem[] = [];
  const at = (rule: string, message: string, pos?: { line: number; col: number }, hint?: string): Problem => ({
    severity: 'error',
    rule,
    path: '',
    message,
    file: name,
    ...(pos ? { line: pos.line, column: pos.col } : {}),
    ...(hint ? { hint } : {}),
  });

  if (text.includes('\u0000')) {
    const offset = text.indexOf('\u0000');
    const lc = lineCol(text, offset);
    problems.push(at('values/not-text', 'the file holds binary data (a NUL byte), not YAML text', lc, 'pass a YAML values file'));
    return { problems };
  }

  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true, version: '1.2' });
  const lines = text.split(/\r?\n/);
  const excerptAt = (line: number): string | undefined => lines[line - 1];

  for (const e of doc.errors) {
    const pos = lineCounter.linePos(e.pos[0]);
    const duplicate = e.code === 'DUPLICATE_KEY';
    problems.push({
      ...at(
        duplicate ? 'values/duplicate-key' : 'values/yaml-syntax',
        duplicate ? `duplicate key: ${firstLine(e.message).replace(/^Map keys must be unique.*$/, 'a key appears twice in the same map')}` : `invalid YAML: ${firstLine(e.message)}`,
        pos,
        duplicate ? 'remove one of the two entries; YAML keeps only one and which one differs between tools' : undefined,
      ),
      excerpt: excerptAt(pos.line),
    });
  }
  if (problems.length > 0) return { problems };

  if (documentCount(text) > 1) {
    problems.push(at('values/multiple-documents', 'a values file must hold one YAML document, found more than one', undefined, 'split the documents into separate files and pass each with -f'));
    return { problems };
  }

  const depth = maxDepth(doc.contents);
  if (depth > YAML_LIMITS.maxDepth) {
    problems.push(at('values/too-deep', `the document nests deeper than ${YAML_LIMITS.maxDepth} levels`, undefined, 'values of this chart are never that deep; check for a generated or corrupted file'));
    return { problems };
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount });
  } catch (err) {
    problems.push(at('values/yaml-aliases', `the document expands too many aliases (${firstLine((err as Error).message)})`, undefined, 'an alias-heavy document is refused to bound memory; write the values out'));
    return { problems };
  }

  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    const pos = doc.contents ? lineCounter.linePos(doc.contents.range[0]) : undefined;
    problems.push({
      ...at('values/not-a-map', `the top level of a values file must be a map of keys, found ${describe(data)}`, pos, 'write values as `key: value` pairs, e.g. `controller:\\n  replicas: 2`'),
      ...(pos ? { excerpt: excerptAt(pos.line) } : {}),
    });
    return { problems };
  }

  return {
    problems,
    source: {
      name,
      data: data as Record<string, unknown>,
      locate(path) {
        const node = findNode(doc, path);
        if (!node) return undefined;
        const pos = lineCounter.linePos(node.range[0]);
        return { file: name, line: pos.line, column: pos.col, excerpt: excerptAt(pos.line) };
      },
    },
  };
}

/** A source built from plain data with no positions (embedded defaults, `--set-json` …). */
export function dataSource(name: string, data: Record<string, unknown>): ValuesSource {
  return {
    name,
    data,
    locate: (path) => (hasPath(data, path) ? { file: name } : undefined),
  };
}

/** True when `path` leads to a defined value (null counts as defined) in `data`. */
export function hasPath(data: unknown, path: readonly PathSegment[]): boolean {
  let cur: unknown = data;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return false;
    if (!Object.prototype.hasOwnProperty.call(cur, seg)) return false;
    cur = (cur as Record<string, unknown>)[seg as string];
  }
  return cur !== undefined;
}

/** The node of a key (for maps: the key node, so errors point at the key the user typed). */
function findNode(doc: Document, path: readonly PathSegment[]): { range: [number, number, number] } | undefined {
  let cur: Node | null | undefined = doc.contents as Node | null;
  let keyNode: { range?: [number, number, number] | null } | undefined;
  if (path.length === 0) return cur?.range ? { range: cur.range } : undefined;
  for (const seg of path) {
    if (isMap(cur)) {
      const pair = cur.items.find((p) => isPair(p) && keyText(p.key) === String(seg));
      if (!pair) return undefined;
      keyNode = pair.key as { range?: [number, number, number] | null };
      cur = pair.value as Node | null;
    } else if (isSeq(cur) && typeof seg === 'number') {
      const item = cur.items[seg] as Node | undefined;
      if (!item) return undefined;
      keyNode = item as { range?: [number, number, number] | null };
      cur = item;
    } else {
      return undefined;
    }
  }
  const range = keyNode?.range;
  return range ? { range } : undefined;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return undefined;
}

function maxDepth(node: unknown, depth = 0): number {
  if (depth > YAML_LIMITS.maxDepth) return depth;
  if (isMap(node)) return Math.max(depth + 1, ...node.items.map((p) => maxDepth((p as { value: unknown }).value, depth + 1)));
  if (isSeq(node)) return Math.max(depth + 1, ...node.items.map((i) => maxDepth(i, depth + 1)));
  return depth;
}

function documentCount(text: string): number {
  // Cheap check before a full multi-document parse: only a line that is exactly a document
  // marker followed by content can start a second document.
  const markers = text.split(/\r?\n/).filter((l) => /^---(\s|$)/.test(l)).length;
  if (markers === 0) return 1;
  const stripped = text.replace(/^\s*---[^\n]*\n/, '');
  return /^---(\s|$)/m.test(stripped) ? 2 : 1;
}

function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) { line++; last = i; }
  return { line, col: offset - last };
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  if (typeof v === 'boolean') return 'a boolean';
  return typeof v;
}
