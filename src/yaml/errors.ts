// The yaml library's syntax errors, moved to where the user must act. The library reports a
// mistake where it noticed it, which is often later than where it was made:
// - an unclosed `[`, `{` or quote is noticed where its content ends (the next key, or the end of
//   the file): reported at the bracket or quote that opened it;
// - a line indented deeper than a `key: value` line above it is read as that value continuing
//   into a key, reported twice at the value: reported once, at the line that is indented wrongly.
// Every command that reads YAML (values, custom resources, .agentplat.yaml) reports through this.

import { isCollection, isScalar, visit, type Document, type YAMLError } from 'yaml';

export interface PlacedYamlError {
  /** Offset in the text where the user must act. */
  offset: number;
  /** One line, starting `invalid YAML: `. */
  message: string;
  hint?: string;
  /** The library's error code (RESOURCE_EXHAUSTION marks nesting past the limit). */
  code: string;
}

const UNCLOSED_FLOW = /^Flow (sequence|map) in block collection must be sufficiently indented and end with a ([\]}])/;
const UNCLOSED_QUOTE = /^Missing closing (["'])quote/;
/** The errors the library gives for a scalar that runs on into the next line's key. */
const RUN_ON_KEY = new Set(['MULTILINE_IMPLICIT_KEY', 'BLOCK_AS_IMPLICIT_KEY']);

interface Spans {
  /** Where flow collections start, by the offset where their content ends. */
  flowEnds: Map<number, number[]>;
  /** Where quoted scalars start, by the offset where they end. */
  quoteEnds: Map<number, number>;
  /** Where plain scalars end, by the offset where they start. */
  plainStarts: Map<number, number>;
}

function spans(doc: Document): Spans {
  const found: Spans = { flowEnds: new Map(), quoteEnds: new Map(), plainStarts: new Map() };
  visit(doc, (_key, node) => {
    if (isCollection(node) && node.flow && node.range) {
      const list = found.flowEnds.get(node.range[1]) ?? [];
      list.push(node.range[0]);
      found.flowEnds.set(node.range[1], list);
    } else if (isScalar(node) && node.range) {
      if (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') found.quoteEnds.set(node.range[1], node.range[0]);
      else if (node.type === 'PLAIN') found.plainStarts.set(node.range[0], node.range[1]);
    }
  });
  return found;
}

/** The first character after the indentation of the line after `from`'s, if that line starts before `to`. */
function nextLineContent(text: string, from: number, to: number): number | undefined {
  const nl = text.indexOf('\n', from);
  if (nl < 0 || nl >= to) return undefined;
  let p = nl + 1;
  while (text[p] === ' ') p++;
  return p;
}

/**
 * The errors of `doc` (parsed from `text`; all of doc.errors unless `errors` picks some), each at
 * the place to fix, one per place, in text order.
 */
export function placeYamlErrors(doc: Document, text: string, errors: readonly YAMLError[] = doc.errors): PlacedYamlError[] {
  if (errors.length === 0) return [];
  let found: Spans | undefined;
  const known = () => (found ??= spans(doc));
  const placed: PlacedYamlError[] = [];
  /** Offsets where an unclosed collection's content ended: later errors there are its echo. */
  const unclosedEnds = new Set<number>();

  for (const e of errors) {
    const at = e.pos[0];
    const first = e.message.split('\n')[0]!;
    const flow = UNCLOSED_FLOW.exec(first);
    if (flow) {
      const close = flow[2]!;
      const open = close === ']' ? '[' : '{';
      // The innermost collection of this kind that ends here without its closing character.
      const start = (known().flowEnds.get(at) ?? []).filter((s) => text[s] === open).sort((a, b) => b - a)[0];
      if (start !== undefined) {
        unclosedEnds.add(at);
        placed.push({
          offset: start,
          code: e.code,
          message: `invalid YAML: the ${open === '[' ? 'list' : 'map'} opened by \`${open}\` here is not closed`,
          hint: `close it with \`${close}\`; when it runs over several lines, indent each continuation line deeper than the line with \`${open}\``,
        });
        continue;
      }
    }
    const quote = UNCLOSED_QUOTE.exec(first);
    if (quote) {
      const start = known().quoteEnds.get(at);
      if (start !== undefined) {
        placed.push({ offset: start, code: e.code, message: `invalid YAML: the string opened by \`${quote[1]}\` here is not closed`, hint: `add the closing \`${quote[1]}\` where the string ends` });
        continue;
      }
    }
    if (RUN_ON_KEY.has(e.code)) {
      if (unclosedEnds.has(at)) continue;
      // A plain scalar that follows something on its line (`replicas: 2`, `- 2`) is a value; when
      // it runs into the next line, that line, indented deeper, made it a key: the line to fix.
      const lineStart = text.lastIndexOf('\n', at - 1) + 1;
      const scalarEnd = known().plainStarts.get(at);
      const next = scalarEnd !== undefined && text.slice(lineStart, at).trim() !== '' ? nextLineContent(text, at, scalarEnd) : undefined;
      if (next !== undefined) {
        placed.push({
          offset: next,
          code: e.code,
          message: 'invalid YAML: this line is indented deeper than the line above it, which already has its value',
          hint: 'indent it like the keys next to it, or move it under a key that has no value on its line',
        });
        continue;
      }
    }
    placed.push({ offset: at, code: e.code, message: `invalid YAML: ${first}` });
  }
  // One problem per place: the library often reports one mistake twice at the same offset.
  const seen = new Set<number>();
  return placed
    .sort((a, b) => a.offset - b.offset)
    .filter((p) => {
      if (seen.has(p.offset)) return false;
      seen.add(p.offset);
      return true;
    });
}
