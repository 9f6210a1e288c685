// The block structure both of agentplat's fast YAML readers share: lines of `key: value` and
// `- item` at increasing indentation, read into maps and lists without the general parser. What a
// leaf, a plain key and the rest of a key's line mean is the dialect's (./template-yaml.ts for
// a template run's lines, ./plain-yaml.ts for values files, resource files and manifests). Anything
// outside the block structure throws Unsupported, and ./read.ts then has the yaml library read the
// text, so the result never depends on which reader ran.

/** A line without its indentation; a NUL and an index stand for a value read ahead (a literal block, a template's printed value). */
export interface Line {
  indent: number;
  text: string;
  /**
   * What the reader worked out of `text`, kept on the static lines of a compiled template, which
   * every run of the template shares (src/render/template-program.ts): each is read once.
   */
  memo?: LineMemo;
}
interface LineMemo {
  /** keyOf(text), null when the line is not a key line. */
  kv?: KeyValue | null;
  /** The line's value when it is a plain scalar (objects and lists are read afresh: each run gets its own). */
  leaf?: { value: unknown };
  /** For a list item: the text after `- `, and the line of the inner block when the item is one. */
  item?: { rest: string; inner: Line | null };
}

interface KeyValue {
  key: string;
  rest: string;
  quoted: boolean;
}

/** Thrown where the text leaves what this reader handles: the caller uses the yaml library. */
export class Unsupported extends Error {}

const PLAIN_KEY = /^[A-Za-z0-9_./-][A-Za-z0-9_./ -]*$/;

/** How a dialect reads leaves, plain keys and what follows a key's colon. */
export interface Dialect {
  leaf(text: string): unknown;
  plainKey(raw: string): string;
  /** The value text after `key:` with a trailing comment gone; '' means a nested block or null. */
  afterKey(text: string): string;
  /** Characters that make the dialect give up on a line. */
  refuse: RegExp;
  /** Whether a document must start in column 1 (the library reads an indented one its own way). */
  rootAtZero: boolean;
  /** Whether literal block scalars (`|`, `|-`, `|+`) are read. */
  literalBlocks: boolean;
  /**
   * How a one-word value of the most common line, `word: word`, resolves; the lines of a dialect
   * without it all take the general path.
   */
  simpleValue?: (word: string) => unknown;
}

/** An error of blockDocuments that means "read this text with the yaml library". */
export function leavesDialect(err: unknown): boolean {
  return err instanceof Unsupported || err instanceof SyntaxError;
}

/**
 * The documents of `text` read in `dialect` one at a time, each read when it is asked for (a long
 * stream is never held whole as data). Where the text leaves the dialect it throws (see
 * leavesDialect), possibly after some documents: the caller then reads all of it with the library.
 */
export function* blockDocuments(text: string, dialect: Dialect): Generator<unknown, void, undefined> {
  const raws = text.split('\n');
  // Every line is read, so one test of the whole text refuses what a test of each line would
  // (a line break itself is never refused). Regular expressions are called once per text, not
  // per line, wherever a check on the first or last character can tell first.
  if (dialect.refuse.test(text)) throw new Unsupported();
  let lines: Line[] = [];
  // Literal block scalars, read ahead of the line structure: each is replaced by a NUL and its
  // index (NUL never reaches a reader from a file or a template: both refuse or escape it).
  let blocks: string[] = [];
  for (let r = 0; r < raws.length; r++) {
    const raw = raws[r]!;
    const line = raw.trimEnd();
    if (line === '---' || line.startsWith('--- ')) {
      if (line !== '---') throw new Unsupported();
      if (lines.length > 0) yield new Reader(lines, dialect, blocks).document();
      lines = [];
      blocks = [];
      continue;
    }
    if (line === '...' || line.charCodeAt(0) === 37 /* % */) throw new Unsupported();
    const content = line.trimStart();
    if (content === '' || content.startsWith('#')) continue;
    const indent = line.length - content.length;
    const header = dialect.literalBlocks && mayBeLiteralHeader(content) ? LITERAL_HEADER.exec(content) : null;
    if (header) {
      const block = literalBlock(raws, r + 1, header[1] === '- ' ? indent : header[1]!.startsWith('- ') ? indent + 2 : indent, header[3] as '' | '-' | '+', text.endsWith('\n'));
      if (!block) throw new Unsupported();
      lines.push({ indent, text: `${content.slice(0, content.length - header[2]!.length)}\u0000${blocks.length}` });
      blocks.push(block.value);
      r = block.next - 1;
      continue;
    }
    lines.push({ indent, text: content });
  }
  if (lines.length > 0) yield new Reader(lines, dialect, blocks).document();
}

/** Nesting deeper than this is left to the library (which bounds it and says so). */
export const MAX_DEPTH = 64;

export class Reader {
  private i = 0;
  private depth = 0;
  constructor(
    private readonly lines: Line[],
    private readonly dialect: Dialect,
    private readonly blocks: readonly unknown[],
    /** Keep what is read of static lines on them (template lines, shared between runs). */
    private readonly memo = false,
  ) {}

  /** The memo of a line that may keep one: a static template line (a value's line holds a NUL). */
  private memoOf(line: Line): LineMemo | undefined {
    if (!this.memo || line.text.includes('\u0000')) return undefined;
    return (line.memo ??= {});
  }

  private keyValue(line: Line): KeyValue | undefined {
    if (!this.memo) return keyOf(line.text);
    const m = this.memoOf(line);
    if (!m) return keyOf(line.text);
    if (m.kv === undefined) m.kv = keyOf(line.text) ?? null;
    return m.kv ?? undefined;
  }

  /** The leaf `text` of `line`; a plain scalar of a static template line is read once. */
  private leafOf(line: Line, text: string): unknown {
    if (!this.memo) return this.leaf(text);
    const m = this.memoOf(line);
    if (!m) return this.leaf(text);
    if (m.leaf) return m.leaf.value;
    const value = this.leaf(text);
    if (value === null || typeof value !== 'object') m.leaf = { value };
    return value;
  }

  private leaf(text: string): unknown {
    return text.charCodeAt(0) === 0 ? this.blocks[Number(text.slice(1))] : this.dialect.leaf(text);
  }

  document(): unknown {
    const first = this.lines[0]!;
    if (this.dialect.rootAtZero && first.indent !== 0) throw new Unsupported();
    // A whole document on one line: JSON from the `json` helper (extraObjects), or a flow node.
    if (this.lines.length === 1 && (first.text.startsWith('{') || first.text.startsWith('['))) return this.dialect.leaf(first.text);
    if (this.lines.length === 1 && first.text.charCodeAt(0) === 0) return this.leaf(first.text);
    const value = this.block(first.indent);
    if (this.i < this.lines.length) throw new Unsupported();
    return value;
  }

  private block(indent: number): unknown {
    const line = this.lines[this.i]!;
    if (line.indent !== indent) throw new Unsupported();
    if (++this.depth > MAX_DEPTH) throw new Unsupported();
    const v = isItem(line.text) ? this.sequence(indent) : this.mapping(indent);
    this.depth--;
    return v;
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.indent < indent) break;
      if (line.indent > indent || !isItem(line.text)) throw new Unsupported();
      const m = this.memo ? this.memoOf(line) : undefined;
      let item = m?.item;
      if (!item) {
        const rest = line.text === '-' ? '' : this.dialect.afterKey(line.text.slice(2).trimStart());
        // `- key: value` or `- - x`: the item is a block starting two columns further in.
        const block = rest !== '' && (isItem(rest) || keyOf(rest) !== undefined);
        item = { rest, inner: block ? { indent: line.indent + (line.text.length - rest.length), text: rest } : null };
        if (m) m.item = item;
      }
      if (item.rest === '') {
        this.i++;
        const next = this.lines[this.i];
        if (!next || next.indent <= indent) throw new Unsupported();
        out.push(this.block(next.indent));
      } else if (item.inner) {
        this.lines[this.i] = item.inner;
        out.push(this.block(item.inner.indent));
      } else {
        out.push(this.leafOf(line, item.rest));
        this.i++;
      }
    }
    return out;
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const simpleValue = this.dialect.simpleValue;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.indent < indent) break;
      if (line.indent > indent || isItem(line.text)) throw new Unsupported();
      // The most common line of a resource or values file, `word: word`, read with one pattern:
      // what the general path below gives for it, without its chain of calls (this code runs in
      // V8's interpreter in a short run, where each call costs).
      const simple = simpleValue ? SIMPLE_LINE.exec(line.text) : null;
      let key: string;
      let rest: string;
      if (simple && !SPECIAL_WORDS.has(simple[1]!)) {
        key = simple[1]!;
        rest = simple[2] ?? '';
      } else {
        const kv = this.keyValue(line);
        if (!kv) throw new Unsupported();
        key = kv.quoted ? kv.key : this.dialect.plainKey(kv.key);
        rest = this.dialect.afterKey(kv.rest);
      }
      if (Object.prototype.hasOwnProperty.call(out, key) || key === '__proto__') throw new Unsupported();
      this.i++;
      if (rest !== '') {
        out[key] = simple && SIMPLE_VALUE.test(rest) ? simpleValue!(rest) : this.leafOf(line, rest);
        continue;
      }
      const next = this.lines[this.i];
      if (next && (next.indent > indent || (next.indent === indent && isItem(next.text)))) out[key] = this.block(next.indent);
      else out[key] = null;
    }
    return out;
  }
}

/**
 * `key:` or `key: value` with a word for a key and nothing that needs the general path: a key of
 * letters, digits, `_` and `-` starting with a letter or `_`, then a value without a comment.
 * SPECIAL_WORDS are keys YAML reads as booleans or null (the general path resolves them).
 */
const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +([^ #][^#]*))?$/;
const SPECIAL_WORDS = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL']);
/** A value that is one word of letters, digits and `_./-` starting with a letter or `_`: resolveCore decides it. */
const SIMPLE_VALUE = /^[A-Za-z_][A-Za-z0-9_./-]*$/;

function isItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/** `key: rest` with a plain or JSON-quoted key; undefined when the line is not a key line. */
function keyOf(text: string): KeyValue | undefined {
  let key: string;
  let after: string;
  const quoted = text.startsWith('"');
  if (quoted) {
    const end = jsonStringEnd(text);
    if (end < 0) return undefined;
    key = JSON.parse(text.slice(0, end + 1)) as string;
    after = text.slice(end + 1);
    if (!after.startsWith(':')) return undefined;
  } else {
    // A plain key runs to the first ':' (the key characters exclude it), which must end the line
    // or be followed by a space.
    const colon = text.indexOf(':');
    if (colon <= 0 || (colon + 1 < text.length && text.charCodeAt(colon + 1) !== 32)) return undefined;
    key = text.slice(0, colon);
    if (!PLAIN_KEY.test(key)) return undefined;
    after = text.slice(colon);
  }
  if (after !== ':' && !after.startsWith(': ')) return undefined;
  return { key, rest: after.slice(1).trim(), quoted };
}

/** The index of the quote that ends the JSON string `text` starts with, or -1. */
export function jsonStringEnd(text: string): number {
  for (let k = 1; k < text.length; k++) {
    if (text[k] === '\\') k++;
    else if (text[k] === '"') return k;
  }
  return -1;
}

/**
 * `key: |`, `- |` or `- key: |`, with `-` (strip) or `+` (keep) chomping; group 1 is what stands
 * before the `|` header's key or item, group 2 the header itself.
 */
const LITERAL_HEADER = /^(- |- [^-].*: |[^-].*: )(\|([-+]?))$/;

/** Whether a line ends as a literal block header does (`|`, `|-`, `|+`): only then is the pattern tried. */
function mayBeLiteralHeader(content: string): boolean {
  const n = content.length;
  const last = content.charCodeAt(n - 1);
  return last === 124 || ((last === 45 || last === 43) && content.charCodeAt(n - 2) === 124);
}

/**
 * The literal block scalar whose content starts at raws[from]: lines indented more than `parent`
 * (the column of its key or item), the indentation of the first taken off every line. Only the
 * plain cases: content from the next line on, no spaces-only lines, no indentation indicator.
 */
function literalBlock(raws: readonly string[], from: number, parent: number, chomp: '' | '-' | '+', endsWithNewline: boolean): { value: string; next: number } | undefined {
  let j = from;
  // The content starts on the next line (leading empty lines are left to the library, which
  // detects the indentation from them in its own way).
  const first = raws[j];
  if (first === undefined || first.trim() === '') return undefined;
  const indent = first.length - first.trimStart().length;
  if (indent <= parent) return undefined;
  const lines: string[] = [];
  for (; j < raws.length; j++) {
    const raw = raws[j]!;
    if (raw === '') {
      lines.push('');
      continue;
    }
    if (raw.trim() === '') return undefined;
    if (raw.length - raw.trimStart().length < indent) break;
    lines.push(raw.slice(indent));
  }
  // Text that ends inside the block: the last split element after the final newline is no line;
  // without a final newline the library keeps no line break at the end (left to it).
  if (j === raws.length) {
    if (!endsWithNewline) return undefined;
    lines.pop();
  }
  let last = lines.length - 1;
  while (last >= 0 && lines[last] === '') last--;
  if (last < 0) return undefined;
  const body = lines.slice(0, last + 1).join('\n');
  const trailing = lines.length - 1 - last;
  const value = chomp === '-' ? body : chomp === '+' ? `${body}\n${'\n'.repeat(trailing)}` : `${body}\n`;
  return { value, next: j };
}
