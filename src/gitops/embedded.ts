// A YAML text inside a YAML file: a HelmRelease's `spec.values` map, a ConfigMap's `values.yaml`
// block scalar, an Application's `helm.values` string. Each is read as a values text of its own,
// and a line and column inside it maps back to the line and column of the user's file: exactly
// for a map written in place and for a literal block scalar (`|`, `|-`, `|+`, with or without an
// indentation indicator), where every line of the value is a line of the file shifted by the
// block's indentation; at the string's first character, and said so, for a folded (`>`), quoted
// or plain string, whose lines the YAML reader joins or unescapes.
import { isMap, isScalar, isSeq, Scalar, type LineCounter, type Node } from 'yaml';

export interface OuterPosition {
  line: number;
  col: number;
  /** False when the position is the string's start, not the place inside it. */
  exact: boolean;
}

export interface EmbeddedText {
  /** The text the controller reads as values. */
  text: string;
  /** Inner line and column (1-based) → the user's file. */
  toOuter(line: number, col: number): OuterPosition;
}

/** The embedded text of a node of the outer file: a map or list written in place, or a string. */
export function embeddedText(node: Node, outer: string, lines: LineCounter): EmbeddedText | undefined {
  const range = node.range;
  if (!range) return undefined;
  if (isMap(node) || isSeq(node)) return inPlace(range[0], range[1], outer, lines);
  if (isScalar(node) && typeof node.value === 'string') return stringText(node, outer, lines);
  return undefined;
}

/**
 * A map written in place: the file's own lines from the node's first character to its end, with
 * what stands before the node on its first line blanked, so every column stays where it was.
 */
function inPlace(start: number, end: number, outer: string, lines: LineCounter): EmbeddedText {
  const lineStart = outer.lastIndexOf('\n', start - 1) + 1;
  const text = ' '.repeat(start - lineStart) + outer.slice(start, end);
  const shift = lines.linePos(start).line - 1;
  return { text, toOuter: (line, col) => ({ line: line + shift, col, exact: true }) };
}

function stringText(node: Scalar, outer: string, lines: LineCounter): EmbeddedText {
  const value = node.value as string;
  const start = lines.linePos(node.range![0]);
  const atStart = (): OuterPosition => ({ line: start.line, col: start.col, exact: false });
  if (node.type !== Scalar.BLOCK_LITERAL) return { text: value, toOuter: atStart };
  // The header (`|`, `|-`, `|2`) ends its line; the content starts on the next one.
  const headerEnd = outer.indexOf('\n', node.range![0]);
  if (headerEnd < 0) return { text: value, toOuter: atStart };
  const header = outer.slice(node.range![0], headerEnd).replace(/\s+#.*$/, '').trim();
  const indicator = /\d/.exec(header);
  const firstLine = start.line + 1;
  let indent: number;
  if (indicator) {
    const headerLineStart = outer.lastIndexOf('\n', node.range![0] - 1) + 1;
    const parentIndent = /^ */.exec(outer.slice(headerLineStart))![0].length;
    indent = parentIndent + Number(indicator[0]);
  } else {
    // The first line that holds more than spaces sets the block's indentation.
    const contentLines = outer.slice(headerEnd + 1, node.range![1]).split('\n');
    const first = contentLines.find((l) => l.trim() !== '');
    indent = first === undefined ? 0 : /^ */.exec(first)![0].length;
  }
  return { text: value, toOuter: (line, col) => ({ line: firstLine + line - 1, col: col + indent, exact: true }) };
}
