// Reads YAML fast, without the general parser, in two dialects:
// - template output (readTemplateYaml, for render): block maps and lists whose leaf values are
//   plain words written in a template (`kind: Service`) or JSON printed by the `json` helper;
// - plain YAML (readPlainYaml, for values and resource files): the same block structure, plus
//   comments, single- and double-quoted scalars, one-line flow collections, literal block
//   scalars and plain scalars resolved by YAML 1.2's core schema (as the yaml library reads with
//   version 1.2), and whole JSON documents over any number of lines. It gives data only; a file
//   with a problem is read again by the library for positions.
// Anything outside the dialect (folded blocks, anchors, aliases, tags, directives, multi-line
// scalars, duplicate keys, unusual characters, deep nesting, …) returns undefined and the caller
// falls back to the yaml library, so the result never depends on which reader ran (property
// tests compare them).

/** A line without its indentation; a NUL and an index stand for a value read ahead (a literal block, a template's printed value). */
interface Line {
  indent: number;
  text: string;
  /**
   * What the reader worked out of `text`, kept on the static lines of a compiled template, which
   * every run of the template shares (src/render/template-program.ts): each is read once.
   */
  memo?: LineMemo;
}
type TemplateLine = Line;

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

class Unsupported extends Error {}

const PLAIN_WORD = /^[A-Za-z0-9_./@$()-][^#:]*$/;
const PLAIN_KEY = /^[A-Za-z0-9_./-][A-Za-z0-9_./ -]*$/;

/** How a dialect reads leaves, plain keys and what follows a key's colon. */
interface Dialect {
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
}

const TEMPLATE: Dialect = { leaf: scalar, plainKey: (k) => k, afterKey: (t) => t, refuse: /\t/, rootAtZero: false, literalBlocks: false };

/** The documents of `text`, or undefined when it leaves the subset this reader handles. */
export function readTemplateYaml(text: string): unknown[] | undefined {
  return readDialect(text, TEMPLATE);
}

/**
 * The documents of a template run (src/render/template-program.ts) read from its lines, without
 * text: a hole (NUL + index) is read as the printed value itself. Undefined when the lines leave
 * the subset, as readTemplateYaml would for the same text.
 */
export function readTemplateLines(docs: readonly TemplateLine[][], values: readonly unknown[]): unknown[] | undefined {
  try {
    return docs.filter((d) => d.length > 0).map((lines) => new Reader([...lines], TEMPLATE, values, true).document());
  } catch (err) {
    if (err instanceof Unsupported || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

function readDialect(text: string, dialect: Dialect): unknown[] | undefined {
  const docs: Line[][] = [[]];
  const raws = text.split('\n');
  // Literal block scalars, read ahead of the line structure: each is replaced by a NUL and its
  // index (NUL never reaches a reader from a file or a template: both refuse or escape it).
  const blocks: string[] = [];
  // Every line is read, so one test of the whole text refuses what a test of each line would
  // (a line break itself is never refused). Regular expressions are called once per text, not
  // per line, wherever a check on the first or last character can tell first.
  if (dialect.refuse.test(text)) return undefined;
  for (let r = 0; r < raws.length; r++) {
    const raw = raws[r]!;
    const line = raw.trimEnd();
    if (line === '---' || line.startsWith('--- ')) {
      if (line !== '---') return undefined;
      docs.push([]);
      continue;
    }
    if (line === '...' || line.charCodeAt(0) === 37 /* % */) return undefined;
    const content = line.trimStart();
    if (content === '' || content.startsWith('#')) continue;
    const indent = line.length - content.length;
    const header = dialect.literalBlocks && mayBeLiteralHeader(content) ? LITERAL_HEADER.exec(content) : null;
    if (header) {
      const block = literalBlock(raws, r + 1, header[1] === '- ' ? indent : header[1]!.startsWith('- ') ? indent + 2 : indent, header[3] as '' | '-' | '+', text.endsWith('\n'));
      if (!block) return undefined;
      docs[docs.length - 1]!.push({ indent, text: `${content.slice(0, content.length - header[2]!.length)}\u0000${blocks.length}` });
      blocks.push(block.value);
      r = block.next - 1;
      continue;
    }
    docs[docs.length - 1]!.push({ indent, text: content });
  }
  try {
    return docs.filter((d) => d.length > 0).map((lines) => new Reader(lines, dialect, blocks).document());
  } catch (err) {
    if (err instanceof Unsupported || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** Nesting deeper than this is left to the library (which bounds it and says so). */
const MAX_DEPTH = 64;

class Reader {
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
    const plain = this.dialect === PLAIN;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.indent < indent) break;
      if (line.indent > indent || isItem(line.text)) throw new Unsupported();
      // The most common line of a resource or values file, `word: word`, read with one pattern:
      // what the general path below gives for it, without its chain of calls (this code runs in
      // V8's interpreter in a short run, where each call costs).
      const simple = plain ? SIMPLE_LINE.exec(line.text) : null;
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
        out[key] = simple && SIMPLE_VALUE.test(rest) ? resolveCore(rest) : this.leafOf(line, rest);
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

function jsonStringEnd(text: string): number {
  for (let k = 1; k < text.length; k++) {
    if (text[k] === '\\') k++;
    else if (text[k] === '"') return k;
  }
  return -1;
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

// ---- plain resource files ----

const PLAIN: Dialect = {
  leaf: plainLeaf,
  plainKey(raw) {
    // `a :` would be the key `a` to YAML; keys resolve like values (`1.0:` is the key "1").
    if (raw !== raw.trimEnd()) throw new Unsupported();
    const v = resolveCore(raw);
    return typeof v === 'string' ? v : v === null ? '' : String(v);
  },
  afterKey: (t) => (t.startsWith('#') ? '' : t),
  // Tabs, carriage returns inside a line, control and line-separator characters, a byte-order
  // mark, and the spaces JavaScript trims but YAML does not count as white space.
  refuse: /[\t\r\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/,
  rootAtZero: true,
  literalBlocks: true,
};

/** The documents of a resource or values file, or undefined when the yaml library must read it. */
export function readPlainYaml(text: string): unknown[] | undefined {
  const lf = text.replace(/\r\n/g, '\n');
  const first = lf.trimStart().charCodeAt(0);
  if (first === 123 /* { */ || first === 91 /* [ */) {
    const json = readJsonDocument(lf);
    if (json !== undefined) return [json];
  }
  return readDialect(lf, PLAIN);
}

/**
 * A text that is one JSON object or array (values written by a program, `kubectl get -o json`)
 * is a YAML flow collection, which the library reads to the same data as JSON.parse, with two
 * differences: YAML refuses a key twice in one object where JSON.parse keeps the last, and the
 * plain reader leaves `__proto__` keys (and deep nesting) to the library. So the text is taken
 * only when every key it spells is a key of the result, none is `__proto__`, and it nests no
 * deeper than the block reader would. Anything else, including any text JSON.parse refuses, is
 * read as YAML.
 */
function readJsonDocument(text: string): unknown {
  if (PLAIN.refuse.test(text)) return undefined;
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

const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** First characters of YAML 1.2 core scalars that are not strings (~, null, true, false, .inf, numbers). */
const CORE_START = new Uint8Array(128);
for (const c of '~nNtTfF.+-0123456789') CORE_START[c.charCodeAt(0)] = 1;

/** A plain scalar by YAML 1.2's core schema: null, bool, int, float, else the string. */
function resolveCore(s: string): unknown {
  // Most scalars (and keys) are words whose first character already says "string".
  if (CORE_START[s.charCodeAt(0)] !== 1) return s;
  switch (s) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
    case '.inf':
    case '.Inf':
    case '.INF':
    case '+.inf':
    case '+.Inf':
    case '+.INF':
      return Infinity;
    case '-.inf':
    case '-.Inf':
    case '-.INF':
      return -Infinity;
    case '.nan':
    case '.NaN':
    case '.NAN':
      return NaN;
  }
  // Every number starts with a digit, a sign or a dot.
  const c = s.charCodeAt(0);
  if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) return s;
  if (INT.test(s)) return Number(s);
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.slice(2), 16);
  if (FLOAT.test(s)) return parseFloat(s);
  return s;
}

/** Starts a plain scalar cannot have, or that this reader leaves to the library (by character code). */
const PLAIN_START = new Uint8Array(128);
for (const c of "-?:,[]{}#&*!|>'\"%@`") PLAIN_START[c.charCodeAt(0)] = 1;

/** A one-line plain scalar this reader is sure of (`flow`: inside a flow collection). */
function plainOk(s: string, flow: boolean): boolean {
  if (s === '' || s !== s.trim()) return false;
  if (PLAIN_START[s.charCodeAt(0)] === 1 && !(s[0] === '-' && s.length > 1 && s[1] !== ' ')) return false;
  if (s.includes(': ') || s.endsWith(':') || s.includes(' #')) return false;
  if (flow && /[,[\]{}]/.test(s)) return false;
  return true;
}

/** What may follow a value on its line: nothing, or a comment after whitespace. */
function commentOnly(tail: string): void {
  const t = tail.trimStart();
  if (t !== '' && !(t.startsWith('#') && t.length < tail.length)) throw new Unsupported();
}

function plainLeaf(text: string): unknown {
  const c = text[0];
  if (c === '"' || c === "'" || c === '[' || c === '{') {
    const f = new Flow(text);
    const v = f.node();
    commentOnly(text.slice(f.pos));
    return v;
  }
  const cut = text.indexOf(' #');
  const plain = cut >= 0 ? text.slice(0, cut).trimEnd() : text;
  if (!plainOk(plain, false)) throw new Unsupported();
  return resolveCore(plain);
}

/** A one-line flow node: quoted scalars, plain scalars and nested `[…]` / `{…}`. */
class Flow {
  pos = 0;
  private depth = 0;
  constructor(private readonly s: string) {}

  node(): unknown {
    this.spaces();
    const c = this.s[this.pos];
    if (c === '[' || c === '{') {
      // Deep nesting is the library's to report (and must not exhaust the stack here).
      if (++this.depth > MAX_DEPTH) throw new Unsupported();
      const v = c === '[' ? this.seq() : this.map();
      this.depth--;
      return v;
    }
    if (c === '"') return this.doubleQuoted();
    if (c === "'") return this.singleQuoted();
    return this.plain();
  }

  private spaces(): void {
    while (this.s[this.pos] === ' ') this.pos++;
  }

  private seq(): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    this.spaces();
    if (this.s[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.node());
      this.spaces();
      const c = this.s[this.pos++];
      if (c === ']') return out;
      if (c !== ',') throw new Unsupported();
    }
  }

  private map(): Record<string, unknown> {
    this.pos++;
    const out: Record<string, unknown> = {};
    this.spaces();
    if (this.s[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.spaces();
      const c = this.s[this.pos];
      let key: string;
      if (c === '"' || c === "'") {
        const k = c === '"' ? this.doubleQuoted() : this.singleQuoted();
        this.spaces();
        if (this.s[this.pos] !== ':') throw new Unsupported();
        this.pos++;
        key = k;
      } else {
        const end = this.s.indexOf(': ', this.pos);
        if (end < 0) throw new Unsupported();
        const raw = this.s.slice(this.pos, end);
        if (!plainOk(raw, true)) throw new Unsupported();
        const v = resolveCore(raw);
        key = v === null ? '' : String(v);
        this.pos = end + 1;
      }
      if (Object.prototype.hasOwnProperty.call(out, key) || key === '__proto__') throw new Unsupported();
      out[key] = this.node();
      this.spaces();
      const d = this.s[this.pos++];
      if (d === '}') return out;
      if (d !== ',') throw new Unsupported();
    }
  }

  private doubleQuoted(): string {
    const start = this.pos;
    const end = jsonStringEnd(this.s.slice(start));
    if (end < 0) throw new Unsupported();
    this.pos = start + end + 1;
    // JSON's escapes mean the same in YAML; an escape JSON lacks makes JSON.parse throw (fallback).
    return JSON.parse(this.s.slice(start, this.pos)) as string;
  }

  private singleQuoted(): string {
    let out = '';
    let k = this.pos + 1;
    for (;;) {
      const q = this.s.indexOf("'", k);
      if (q < 0) throw new Unsupported();
      out += this.s.slice(k, q);
      if (this.s[q + 1] === "'") {
        out += "'";
        k = q + 2;
        continue;
      }
      this.pos = q + 1;
      return out;
    }
  }

  private plain(): unknown {
    let end = this.pos;
    while (end < this.s.length && !',[]{}'.includes(this.s[end]!)) end++;
    const raw = this.s.slice(this.pos, end).trimEnd();
    if (!plainOk(raw, true)) throw new Unsupported();
    this.pos = end;
    return resolveCore(raw);
  }
}

/**
 * `key: |`, `- |` or `- key: |`, with `-` (strip) or `+` (keep) chomping; group 1 is what stands
 * before the `|` header's key or item, group 2 the header itself.
 */
const LITERAL_HEADER = /^(- |- [^-].*: |[^-].*: )(\|([-+]?))$/;

/**
 * The literal block scalar whose content starts at raws[from]: lines indented more than `parent`
 * (the column of its key or item), the indentation of the first taken off every line. Only the
 * plain cases: content from the next line on, no spaces-only lines, no indentation indicator.
 */
/** Whether a line ends as a literal block header does (`|`, `|-`, `|+`): only then is the pattern tried. */
function mayBeLiteralHeader(content: string): boolean {
  const n = content.length;
  const last = content.charCodeAt(n - 1);
  return last === 124 || ((last === 45 || last === 43) && content.charCodeAt(n - 2) === 124);
}

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
