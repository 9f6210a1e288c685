// A values layer with the means to point back at where each key was written.
// YAML text keeps its parsed Document so a path maps to a line and column; command-line
// flags keep the column of each assignment inside the flag's argument.

import { isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments, visit, type Document, type Node } from 'yaml';
import type { Problem } from '../problems/problem.ts';
import { excerptAt as maskedExcerpt, maskedLines, VALUES_SECRETS, type Masked } from '../problems/secrets.ts';
import { placeYamlErrors } from '../yaml/errors.ts';
import { readYaml } from '../yaml/read.ts';
import { rawNestingOverflow, YAML_LIMITS } from '../yaml/limits.ts';
import type { KeyTree } from '../chart/values-nodes.ts';

export { rawNestingOverflow, YAML_LIMITS };

export type PathSegment = string | number;

/** How a value was written: in a YAML file (or stdin), or with one of the --set flags. */
export type ValueOrigin = 'file' | '--set' | '--set-string' | '--set-json' | '--set-file' | '--set-literal';

export interface Location {
  file: string;
  line?: number;
  column?: number;
  excerpt?: string;
  /** The caret's column in `excerpt` when masks moved it from `column` (Problem.excerptColumn). */
  excerptColumn?: number;
  /** The flag that wrote the value; undefined for a file. */
  origin?: Exclude<ValueOrigin, 'file'>;
  /** The anchor (`key: &name …`) the value written there carries, and how many aliases (`*name`) repeat it. */
  anchor?: { name: string; aliases: number };
  /** Where inside a GitOps object the value was written (`spec.values`, `valuesFrom[1] ConfigMap x key values.yaml line 3`, `parameters[2]`). */
  via?: string;
}

export interface ValuesSource {
  /** As shown to the user: the file path as given, `<stdin>`, `--set #2`, `defaults (revision B)`. */
  readonly name: string;
  /** Plain data of this layer (a map at the top). */
  readonly data: Record<string, unknown>;
  /** Where `path` was written in this layer, or undefined when this layer does not set it. */
  locate(path: readonly PathSegment[]): Location | undefined;
  /** The chart's defaults: coalesced under the user's layers rather than merged (merge.ts). */
  readonly chartDefaults?: boolean;
  /**
   * With chartDefaults: the keys the chart declares that `data` leaves unset; a user's null there
   * is removed as over a key of `data` (merge.ts). Called only when a user's null meets such a key.
   */
  readonly unsetKeys?: () => KeyTree;
  /**
   * A flag layer: the user's tree below it with this layer's assignments made in place (a copy),
   * as helm's flags edit the tree the files built. Without it, `data` merges as a file does.
   */
  apply?(below: Record<string, unknown>): Record<string, unknown>;
  /**
   * A GitOps object's post-renderers (Flux `spec.postRenderers`), carried by its last layer: the
   * rendered objects go through them before anything else sees them, as the controller applies
   * them; what a step finds wrong comes back as problems (an error: the controller fails the release).
   */
  readonly postRender?: <T extends { object: object }>(docs: T[]) => { docs: T[]; problems: Problem[] };
}


export interface ParsedValues {
  source?: ValuesSource;
  problems: Problem[];
}

/** Parses one values document. Problems carry `file`, line and column; no exception escapes. */
export function parseValuesText(text: string, name: string): ParsedValues {
  const fast = plainValues(text, name);
  return fast ? { problems: [], source: fast } : parseValuesWithPositions(text, name);
}

/**
 * Most values files are plain YAML with nothing wrong in them: their data comes from the fast
 * reader (yaml/read.ts decides when it applies), and the library reads the text, with the
 * position of every key, only when a problem needs one. Whatever yaml/read.ts declines goes to
 * parseValuesWithPositions at once. A clean values file is read once, by the fast reader; a file
 * with a problem is read twice.
 */
function plainValues(text: string, name: string): ValuesSource | undefined {
  const docs = readYaml(text, 'values');
  if (!docs) return undefined;
  let located: ValuesSource | undefined;
  return {
    name,
    data: (docs[0] ?? {}) as Record<string, unknown>,
    locate(path) {
      located ??= parseValuesWithPositions(text, name).source;
      return located?.locate(path);
    },
  };
}

/** The library's reading, with every check and the position of every key (exported for tests). */
export function parseValuesWithPositions(text: string, name: string): ParsedValues {
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

  if (text.length > YAML_LIMITS.maxTextLength) {
    problems.push(at('values/too-large', `the input holds ${text.length} characters, more than the limit of ${YAML_LIMITS.maxTextLength}`, undefined, 'a values file of this chart is a few kilobytes; check that you passed the right input'));
    return { problems };
  }
  // Editors do not count a byte-order mark as a column; neither do we.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  // Excerpts show the lines with every secret value masked, worked out once for the whole text.
  let lines: Masked[] | undefined;
  const excerptAt = (pos: { line: number; col: number }) => maskedExcerpt((lines ??= maskedLines(text, VALUES_SECRETS)), pos.line, pos.col);
  const tooDeep = (pos?: { line: number; col: number }) => ({
    ...at('values/too-deep', `the document nests deeper than ${YAML_LIMITS.maxDepth} levels`, pos, 'values of this chart are never that deep; check for a generated or corrupted file'),
    ...(pos ? excerptAt(pos) : {}),
  });

  const deepAt = rawNestingOverflow(text, YAML_LIMITS.maxRawNesting);
  if (deepAt >= 0) {
    problems.push(tooDeep(lineCol(text, deepAt)));
    return { problems };
  }

  const lineCounter = new LineCounter();
  // uniqueKeys is checked below in linear time; yaml's own check compares every pair of keys.
  // merge: YAML merge keys (`<<: *defaults`), which helm's YAML reader applies, merge as they do there.
  const docs = parseAllDocuments(text, { lineCounter, uniqueKeys: false, prettyErrors: false, strict: true, version: '1.2', merge: true, logLevel: 'error' });
  const all = Array.isArray(docs) ? docs : [];
  // `a: 1` followed by a bare `---` is one document plus an empty one, which is harmless.
  const isEmpty = (c: unknown) => c === null || (isScalar(c) && c.value === null && !c.source);
  const withContent = all.filter((d) => !isEmpty(d.contents) || d.errors.length > 0);
  const doc = withContent[0] ?? all[0];

  for (const e of all.flatMap((d) => placeYamlErrors(d, text))) {
    const pos = lineCounter.linePos(e.offset);
    if (e.code === 'RESOURCE_EXHAUSTION') {
      problems.push(tooDeep(pos));
      continue;
    }
    problems.push({ ...at('values/yaml-syntax', e.message, pos, e.hint), ...excerptAt(pos) });
  }
  if (problems.length > 0) return { problems };

  if (withContent.length > 1) {
    const second = withContent[1]!;
    const pos = lineCounter.linePos(second.range[0]);
    problems.push({
      ...at('values/multiple-documents', 'a values file must hold one YAML document, found more than one', pos, 'split the documents into separate files and pass each with -f'),
      ...excerptAt(pos),
    });
    return { problems };
  }
  if (!doc) return { problems, source: emptySource(name) };

  const deep = firstTooDeep(doc.contents, YAML_LIMITS.maxDepth);
  if (deep) {
    problems.push(tooDeep(lineCounter.linePos(deep.range?.[0] ?? 0)));
    return { problems };
  }

  for (const key of duplicateKeys(doc.contents)) {
    const pos = lineCounter.linePos(key.range?.[0] ?? 0);
    problems.push({
      ...at('values/duplicate-key', `duplicate key ${JSON.stringify(keyText(key) ?? '')}: it appears twice in the same map`, pos, 'remove one of the two entries; YAML keeps only one and which one differs between tools'),
      ...excerptAt(pos),
    });
  }
  if (problems.length > 0) return { problems };

  const cycle = firstCyclicAlias(doc);
  if (cycle !== undefined) {
    const pos = lineCounter.linePos(cycle);
    problems.push({
      ...at('values/yaml-aliases', 'an alias refers to a node that contains it, so the value would be endless', pos, 'an alias may only repeat a node that is complete before it; write the values out'),
      ...excerptAt(pos),
    });
    return { problems };
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount });
  } catch (err) {
    // Point at the first alias: that is where the expansion starts.
    let first: number | undefined;
    visit(doc, { Alias: (_, node) => { first ??= node.range?.[0]; return first === undefined ? undefined : visit.BREAK; } });
    const pos = first !== undefined ? lineCounter.linePos(first) : undefined;
    problems.push({
      ...at('values/yaml-aliases', `the document expands too many aliases (${firstLine((err as Error).message)})`, pos, 'an alias-heavy document is refused to bound memory; write the values out'),
      ...(pos ? excerptAt(pos) : {}),
    });
    return { problems };
  }

  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    const pos = doc.contents ? lineCounter.linePos(doc.contents.range[0]) : undefined;
    problems.push({
      ...at('values/not-a-map', `the top level of a values file must be a map of keys, found ${describe(data)}`, pos, 'write values as `key: value` pairs, e.g. `controller:\\n  replicas: 2`'),
      ...(pos ? excerptAt(pos) : {}),
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
        const anchor = node.value?.anchor;
        return { file: name, line: pos.line, column: pos.col, ...excerptAt(pos), ...(anchor ? { anchor: { name: anchor, aliases: aliasCount(doc, anchor) } } : {}) };
      },
    },
  };
}

function emptySource(name: string): ValuesSource {
  return { name, data: {}, locate: () => undefined };
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

/** Aliases (`*name`) of the document that repeat the anchor `name`. */
function aliasCount(doc: Document, name: string): number {
  let n = 0;
  visit(doc, { Alias: (_, alias) => void (alias.source === name && n++) });
  return n;
}

/**
 * The node of a key (for maps: the key node, so errors point at the key the user typed), with the
 * value written there.
 */
function findNode(doc: Document, path: readonly PathSegment[]): { range: [number, number, number]; value: Node | null | undefined } | undefined {
  let cur: Node | null | undefined = doc.contents as Node | null;
  let keyNode: { range?: [number, number, number] | null } | undefined;
  if (path.length === 0) return cur?.range ? { range: cur.range, value: cur } : undefined;
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
  return range ? { range, value: cur } : undefined;
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return undefined;
}

/**
 * Offset of the first alias that sits inside the node its anchor names (`a: &a {b: *a}`): such a
 * document reads as a cyclic value, which nothing downstream can walk. Undefined when none.
 */
export function firstCyclicAlias(doc: Document): number | undefined {
  let found: number | undefined;
  visit(doc, {
    Alias(_, alias) {
      const target = alias.resolve(doc);
      const at = alias.range?.[0];
      if (target?.range && at !== undefined && at >= target.range[0] && at < target.range[1]) {
        found = at;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** The first collection found deeper than `limit`, or undefined. Iterative: no stack to exhaust. */
function firstTooDeep(root: unknown, limit: number): Node | undefined {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (isMap(node)) {
      if (depth >= limit) return node;
      for (const p of node.items) stack.push([p.value, depth + 1]);
    } else if (isSeq(node)) {
      if (depth >= limit) return node;
      for (const item of node.items) stack.push([item, depth + 1]);
    }
  }
  return undefined;
}

/** Key nodes that repeat an earlier key of the same map, in document order. Linear per map. */
function duplicateKeys(root: unknown): Node[] {
  const out: Node[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const text = keyText(pair.key);
        if (text !== undefined) {
          if (seen.has(text)) out.push(pair.key as Node);
          seen.add(text);
        }
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    }
  }
  return out.sort((a, b) => (a.range?.[0] ?? 0) - (b.range?.[0] ?? 0));
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
