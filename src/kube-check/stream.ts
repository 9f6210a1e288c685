// Reading a stream of resources: the documents of a file with the position of every path in them
// (the yaml library's parser and composer), its syntax problems placed and worded, and the
// documents of a file the plain reader has read, cut apart to be read again with positions.
import { Composer, isMap, isPair, isScalar, isSeq, LineCounter, Parser, type Node as YamlNode } from 'yaml';
import type { Problem } from '../problems/problem.ts';
import { excerptAt, maskedLines } from '../problems/secrets.ts';
import { firstCyclicAlias } from '../values/source.ts';
import { placeYamlErrors } from '../yaml/errors.ts';
import type { Json, Path } from './decode.ts';
import { crdSecretFields } from './report.ts';
import type { CrdRuleId } from './rules.ts';

export interface ResourceInput {
  /** As shown to the user: a path or `<stdin>`. */
  file: string;
  text: string;
}

const YAML_SYNTAX: CrdRuleId = 'crd/yaml-syntax';
const MAX_ALIAS_COUNT = 1000;

export interface ParsedDoc {
  data: Json;
  locate(path: Path): { line: number; column: number; excerpt?: string; excerptColumn?: number };
}

/**
 * The documents of a file read with positions, one at a time (the yaml library's parser and
 * composer, which parseAllDocuments runs to the end): a long stream is never held whole as
 * syntax trees. Syntax problems go to `problems` as their document is reached.
 */
export function* parseStream(input: ResourceInput, problems: Problem[]): Generator<ParsedDoc> {
  const lineCounter = new LineCounter();
  // Excerpts never show a credential: the values of secret fields and URL passwords are masked.
  const lines = maskedLines(input.text, crdSecretFields());
  const options = { lineCounter, uniqueKeys: true, version: '1.2', logLevel: 'error' } as const;
  for (const doc of new Composer(options).compose(new Parser(lineCounter.addNewLine).parse(input.text))) {
    if (doc.errors.length > 0) {
      // A nesting bomb fails once per level; one problem, at the first place, says it all.
      const isExhaustion = (e: { code: string; message: string }): boolean => e.code === 'RESOURCE_EXHAUSTION' || /call stack/i.test(e.message);
      const exhausted = doc.errors.filter(isExhaustion).sort((a, b) => a.pos[0] - b.pos[0]).slice(0, 1);
      const placed = [
        ...exhausted.map((x) => ({ offset: x.pos[0], code: 'RESOURCE_EXHAUSTION', message: 'invalid YAML: the document nests too deeply to be read', hint: 'resources are never that deep; check for a generated or corrupted file' })),
        ...placeYamlErrors(doc, input.text, doc.errors.filter((e) => !isExhaustion(e))),
      ];
      for (const e of placed) {
        const pos = lineCounter.linePos(e.offset);
        problems.push({
          severity: 'error',
          rule: YAML_SYNTAX,
          path: '',
          message: e.code === 'DUPLICATE_KEY' ? duplicateKeyMessage(e.offset, input.text) : e.message,
          ...(e.hint ? { hint: e.hint } : {}),
          file: input.file,
          line: pos.line,
          column: pos.col,
          ...excerptAt(lines, pos.line, pos.col),
        });
      }
      continue;
    }
    const cycle = firstCyclicAlias(doc);
    if (cycle !== undefined) {
      const pos = lineCounter.linePos(cycle);
      problems.push({
        severity: 'error',
        rule: YAML_SYNTAX,
        path: '',
        message: 'an alias refers to a node that contains it, so the value would be endless',
        hint: 'an alias may only repeat a node that is complete before it',
        file: input.file,
        line: pos.line,
        column: pos.col,
        ...excerptAt(lines, pos.line, pos.col),
      });
      continue;
    }
    let data: Json;
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (err) {
      const pos = lineCounter.linePos(doc.range[0]);
      problems.push({ severity: 'error', rule: YAML_SYNTAX, path: '', message: `cannot read the document: ${(err as Error).message}`, hint: 'an alias-heavy document is refused to bound memory; write the resource out', file: input.file, line: pos.line, column: pos.col });
      continue;
    }
    const contents = doc.contents as YamlNode | null;
    const docStart = lineCounter.linePos(contents?.range?.[0] ?? doc.range[0]);
    yield {
      data,
      locate(path) {
        const offset = offsetOf(contents, path);
        const pos = offset === undefined ? docStart : lineCounter.linePos(offset);
        return { line: pos.line, column: pos.col, ...excerptAt(lines, pos.line, pos.col) };
      },
    };
  }
}

/** The parser's duplicate-key error in one sentence that names the key at `offset`. */
function duplicateKeyMessage(offset: number, text: string): string {
  const key = /^[^\s:#]*/.exec(text.slice(offset, offset + 200))?.[0];
  return key ? `duplicate key "${key}": it appears twice in the same map` : 'duplicate key: a key appears twice in the same map';
}

/** Offset of the deepest node on `path` that exists (the key for map entries). */
function offsetOf(root: YamlNode | null, path: Path): number | undefined {
  let cur: unknown = root;
  let best = root?.range?.[0];
  for (const seg of path) {
    if (isMap(cur)) {
      const pair = cur.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      best = (pair.key as YamlNode).range?.[0] ?? best;
      cur = pair.value;
    } else if (isSeq(cur) && typeof seg === 'number') {
      const item = cur.items[seg] as YamlNode | undefined;
      if (!item) break;
      best = item.range?.[0] ?? best;
      cur = item;
    } else break;
  }
  return best;
}

/**
 * The documents of a file the plain reader has read (so its only document markers are lines
 * `---`, and it has no directive and no `...`), each with the number of lines before it, the
 * documents that hold nothing but comments left out as the reader leaves them out; undefined
 * when they are not `count` (a JSON document, carriage returns: read the file whole instead).
 */
export function plainDocumentTexts(text: string, count: number): { text: string; firstLine: number }[] | undefined {
  if (text.includes('\r')) return undefined;
  const lines = text.split('\n');
  const out: { text: string; firstLine: number }[] = [];
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && lines[i]!.trimEnd() !== '---') continue;
    const body = lines.slice(start, i);
    if (body.some((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))) out.push({ text: body.join('\n'), firstLine: start });
    start = i + 1;
  }
  return out.length === count ? out : undefined;
}
