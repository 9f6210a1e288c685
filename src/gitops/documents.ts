// The documents of a user's YAML file with the position of every node: what a GitOps object and
// the ConfigMaps, Secrets and sources beside it are read from.
import { isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from 'yaml';
import { UsageError } from '../problems/errors.ts';
import { FilePlaces, type UserFile } from './layers.ts';
import type { PathSegment } from '../values/source.ts';
import type { WrittenAt } from './release.ts';

export interface YamlDoc {
  file: UserFile;
  places: FilePlaces;
  doc: Document;
  lines: LineCounter;
  /** The document's data; undefined for an empty document. */
  data: unknown;
}

/** Every document of `file`; a file that is not YAML is refused with its first error's position. */
export function readDocuments(file: UserFile): YamlDoc[] {
  const lines = new LineCounter();
  const places = new FilePlaces(file);
  const docs = parseAllDocuments(file.text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, strict: true, logLevel: 'error' });
  const all = Array.isArray(docs) ? docs : [];
  const out: YamlDoc[] = [];
  for (const doc of all) {
    const err = doc.errors[0];
    if (err) {
      const pos = lines.linePos(err.pos[0]);
      throw new UsageError(`${places.where(pos)}: ${err.message.split('\n')[0]}`, 'fix the YAML of this file (kubectl and the controller cannot read it either)');
    }
    out.push({ file, places, doc, lines, data: doc.toJS({ maxAliasCount: 1000 }) });
  }
  return out;
}

/** The node at `path` in the document, or undefined. */
export function nodeAt(d: YamlDoc, path: readonly PathSegment[]): Node | undefined {
  let cur: unknown = d.doc.contents;
  for (const seg of path) {
    if (isMap(cur)) {
      const pair = cur.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return undefined;
      cur = pair.value;
    } else if (isSeq(cur) && typeof seg === 'number') cur = cur.items[seg];
    else return undefined;
  }
  return (cur ?? undefined) as Node | undefined;
}

/** Line and column of the node at `path`, else of its nearest parent that is written. */
export function posAt(d: YamlDoc, path: readonly PathSegment[]): { line: number; col: number } {
  for (let n = path.length; n >= 0; n--) {
    const node = nodeAt(d, path.slice(0, n));
    if (node?.range) return d.lines.linePos(node.range[0]);
  }
  return { line: 1, col: 1 };
}

/** The node at `path` as written: its file, `file:line:col` and offsets; undefined when it is not written. */
export function writtenAt(d: YamlDoc, path: readonly PathSegment[]): WrittenAt | undefined {
  const node = nodeAt(d, path);
  if (!node?.range) return undefined;
  return { file: d.file.name, where: d.places.where(d.lines.linePos(node.range[0])), start: node.range[0], end: node.range[1] };
}

/** `file:line:col` of the node at `path` (or its nearest written parent). */
export function whereAt(d: YamlDoc, path: readonly PathSegment[]): string {
  return d.places.where(posAt(d, path));
}

/** The value at a dotted path of plain data. */
export function get(data: unknown, ...path: PathSegment[]): unknown {
  let cur = data;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg as string];
  }
  return cur;
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** `apiVersion` and `kind` of a document's data. */
export function typeOf(data: unknown): { apiVersion?: string; kind?: string } {
  const apiVersion = str(get(data, 'apiVersion'));
  const kind = str(get(data, 'kind'));
  return { ...(apiVersion ? { apiVersion } : {}), ...(kind ? { kind } : {}) };
}
