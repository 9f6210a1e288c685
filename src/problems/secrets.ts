// Which values are secrets, and how anything that echoes user input hides them. The models
// decide what is secret (the values model marks its keys `secret`, the Resource API model its
// inline credentials), not the spelling of a key: `maxTokens` is a number to show, `url` of the
// database is a credential to hide.

import type { Problem } from './problem.ts';
import { VALUES_SECRET_FIELDS } from './values-secret-fields.generated.ts';

/** A secret field: path segments from the document root; `*` stands for any key or list index. */
export type SecretPattern = readonly string[];

interface TrieNode {
  /** A pattern ends here: this node is a secret field. */
  end: boolean;
  /** A config-text pattern ends here: this node's text holds settings, some of them secret. */
  text: boolean;
  next: Map<string, TrieNode>;
}

/**
 * Where a walk down a document stands with respect to the secret fields: the pattern nodes its
 * path reaches, or `inside` once the path is a secret field or lies below one. Walks keep a
 * cursor per level instead of a path, so a step costs the same at any depth.
 */
export interface SecretCursor {
  readonly nodes: readonly TrieNode[];
  readonly inside: boolean;
  /** The path is a config text (configTextSecretSpans): the values of its secret settings are secrets. */
  readonly text?: boolean;
}

const OUTSIDE: SecretCursor = { nodes: [], inside: false };
const INSIDE: SecretCursor = { nodes: [], inside: true };

/** The secret fields of one kind of document, asked by path or step by step. */
export class SecretFields {
  readonly root: SecretCursor;

  /**
   * `patterns`: the secret fields. `texts`: the fields whose text is a configuration file of
   * `name = value` or `name: value` settings, in which the values of secret settings are secrets
   * (configTextSecretSpans).
   */
  constructor(patterns: readonly SecretPattern[], texts: readonly SecretPattern[] = []) {
    const top: TrieNode = { end: false, text: false, next: new Map() };
    const add = (p: SecretPattern): TrieNode => {
      let n = top;
      for (const seg of p) {
        let child = n.next.get(seg);
        if (!child) n.next.set(seg, (child = { end: false, text: false, next: new Map() }));
        n = child;
      }
      return n;
    };
    for (const p of patterns) add(p).end = true;
    for (const p of texts) add(p).text = true;
    this.root = patterns.length + texts.length === 0 ? OUTSIDE : { nodes: [top], inside: false };
  }

  /** The cursor one level below `at`, under key (or list index) `seg`. */
  step(at: SecretCursor, seg: string | number): SecretCursor {
    if (at.inside) return INSIDE;
    if (at.nodes.length === 0) return OUTSIDE;
    const nodes: TrieNode[] = [];
    for (const n of at.nodes) {
      const exact = n.next.get(String(seg));
      if (exact) nodes.push(exact);
      const any = n.next.get('*');
      if (any) nodes.push(any);
    }
    if (nodes.some((n) => n.end)) return INSIDE;
    if (nodes.length === 0) return OUTSIDE;
    return nodes.some((n) => n.text) ? { nodes, inside: false, text: true } : { nodes, inside: false };
  }

  at(path: readonly unknown[]): SecretCursor {
    let c = this.root;
    for (const seg of path) c = this.step(c, String(seg));
    return c;
  }

  /** True when `path` is a secret field or lies inside one (a map written where a secret belongs). */
  covers(path: readonly unknown[]): boolean {
    return this.at(path).inside;
  }

  /** True when a secret field lies strictly below `path`: what is written there may hold one. */
  holdsSecretBelow(path: readonly unknown[]): boolean {
    return this.at(path).nodes.length > 0;
  }

  /** True when no field is secret. */
  get empty(): boolean {
    return this.root === OUTSIDE;
  }
}

/**
 * The values that hold a configuration file of the proxy as text: the legacy file's settings
 * (`client_secret = "…"`) and the alpha configuration's YAML (`clientSecret: …`).
 */
export const VALUES_CONFIG_TEXT_FIELDS: readonly SecretPattern[] = [
  ['authproxy', 'config', 'configFile'],
  ['authproxy', 'alphaConfig', 'configFile'],
];

/** The secret fields of chart values (every revision: a key secret in one is a secret name in both). */
export const VALUES_SECRETS = new SecretFields(VALUES_SECRET_FIELDS, VALUES_CONFIG_TEXT_FIELDS);

/**
 * Settings of a configuration text that hold a secret, by name with case, `_` and `-` ignored:
 * those of the proxy (client_secret, cookie_secret, redis_password, redis_sentinel_password,
 * basic_auth_password, github_token, jwt_key, …, and clientSecret of its alpha configuration) and
 * any other name that ends the same way. A name ending in `file` (client_secret_file) is a path.
 */
const SECRET_SETTING = /(secret|password|passwd|token|apikey|privatekey|jwtkey)$/;

/**
 * Where the values of secret settings lie in a configuration text of `name = value` (TOML, as the
 * proxy's legacy file) or `name: value` (YAML, as its alpha configuration) lines: a quoted value
 * inside its quotes (a triple-quoted one across lines), a YAML block scalar on the lines below it,
 * a bare value up to a comment. `true` and `false` are no secrets (pass_access_token = true).
 */
export function configTextSecretSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  const lines = text.split('\n');
  const starts: number[] = [];
  for (let li = 0, at = 0; li < lines.length; at += lines[li]!.length + 1, li++) starts.push(at);
  const indentOf = (line: string) => /^[ \t]*/.exec(line)![0].length;
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    const offset = starts[li]!;
    const m = /^([ \t]*(?:-[ \t]+)?)(["']?)([A-Za-z][\w.-]*)\2[ \t]*([=:])[ \t]*/.exec(line);
    if (!m || !SECRET_SETTING.test(m[3]!.toLowerCase().replace(/[-_]/g, ''))) continue;
    const from = offset + m[0].length;
    const rest = line.slice(m[0].length).replace(/\r$/, '');
    const triple = rest.startsWith('"""') ? '"""' : rest.startsWith("'''") ? "'''" : undefined;
    if (triple) {
      const close = text.indexOf(triple, from + 3);
      const end = close < 0 ? text.length : close;
      spans.push([from + 3, end]);
      while (li + 1 < lines.length && starts[li + 1]! <= end) li++;
      continue;
    }
    const q = rest[0];
    if (q === '"' || q === "'") {
      let j = 1;
      while (j < rest.length && rest[j] !== q) j += q === '"' && rest[j] === '\\' ? 2 : 1;
      spans.push([from + 1, from + Math.min(j, rest.length)]);
      continue;
    }
    if (m[4] === ':' && /^[|>][-+0-9]*[ \t]*(#.*)?$/.test(rest)) {
      // A YAML block scalar: the lines below, as long as they are indented deeper than the key.
      let k = li + 1;
      while (k < lines.length && (lines[k]!.trim() === '' || indentOf(lines[k]!) > indentOf(line))) k++;
      if (k > li + 1) spans.push([starts[li + 1]!, starts[k - 1]! + lines[k - 1]!.length]);
      li = k - 1;
      continue;
    }
    const value = rest.replace(/[ \t]+#.*$/, '').trimEnd();
    if (value === '' || /^(true|false)$/i.test(value)) continue;
    spans.push([from, from + value.length]);
  }
  return spans;
}

/** Shorter values are not masked inside other text (they would mask ordinary words). */
export const MIN_MASKED_LENGTH = 4;

export const MASK = '********';

/** Every secret value (strings and numbers at or inside secret fields) of a document. */
export function secretValues(data: unknown, fields: SecretFields, out = new Set<string>()): Set<string> {
  const walk = (v: unknown, at: SecretCursor) => {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') {
      const s = String(v);
      if (at.inside && s.length >= MIN_MASKED_LENGTH) out.add(s);
      if (at.text && typeof v === 'string') {
        for (const [from, to] of configTextSecretSpans(v)) if (to - from >= MIN_MASKED_LENGTH) out.add(v.slice(from, to));
      }
      return;
    }
    // Subtrees that cannot hold a secret are not walked: a list of thousands of entries costs nothing.
    if (v === null || typeof v !== 'object' || (!at.inside && at.nodes.length === 0)) return;
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, fields.step(at, i)));
    else for (const [k, x] of Object.entries(v)) walk(x, fields.step(at, k));
  };
  walk(data, fields.root);
  return out;
}

/** `text` with every occurrence of a secret value, and the password of every URL, masked. */
export function redact(text: string, secrets: ReadonlySet<string>): string {
  return redacted(text, secrets).text;
}

/**
 * redact, with the map from columns of `text` to columns of the result: URL passwords first, then
 * the secrets wherever they still show (a secret URL keeps its shape, its password masked).
 */
function redacted(text: string, secrets: ReadonlySet<string>): Masked {
  const urls = maskSpans(text, urlPasswordSpans(text));
  const spans: [number, number][] = [];
  for (const s of secrets) {
    if (s === '') continue;
    for (let i = urls.text.indexOf(s); i >= 0; i = urls.text.indexOf(s, i + s.length)) spans.push([i, i + s.length]);
  }
  const out = maskSpans(urls.text, spans);
  return { text: out.text, column: (c) => out.column(urls.column(c)) };
}

/** A problem whose message, hint and excerpt repeat none of `secrets` and no URL password; its caret still under the same place. */
export function redactProblem(p: Problem, secrets: ReadonlySet<string>): Problem {
  const excerpt = p.excerpt !== undefined ? redacted(p.excerpt, secrets) : undefined;
  const caret = p.excerptColumn ?? p.column;
  return {
    ...p,
    message: redact(p.message, secrets),
    ...(p.hint !== undefined ? { hint: redact(p.hint, secrets) } : {}),
    ...(excerpt ? { excerpt: excerpt.text, ...excerptCaret(p.column, caret !== undefined ? excerpt.column(caret) : undefined) } : {}),
  };
}

/** The password of a URL with credentials (`scheme://user:password@host`) is a secret wherever it is written. */
export function maskUrlPasswords(text: string): string {
  return maskSpans(text, urlPasswordSpans(text)).text;
}

/** Where the passwords of URLs with credentials lie in `text`, as spans for maskSpans. */
function urlPasswordSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  if (!text.includes('://')) return spans;
  for (const m of text.matchAll(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)([^\s@/]+)@/gi)) {
    const from = m.index + m[1]!.length;
    spans.push([from, from + m[2]!.length]);
  }
  return spans;
}

/**
 * The excerpt of `line` (1-based) of masked `lines` for a problem at `column` of the original
 * text, with where its caret goes: the masks before `column` moved it (excerptColumn, given only
 * when it differs from the column).
 */
export function excerptAt(lines: readonly Masked[], line: number, column?: number): { excerpt?: string; excerptColumn?: number } {
  const masked = lines[line - 1];
  if (!masked) return {};
  return { excerpt: masked.text, ...excerptCaret(column, column !== undefined ? masked.column(column) : undefined) };
}

function excerptCaret(column: number | undefined, caret: number | undefined): { excerptColumn?: number } {
  return caret !== undefined && caret !== column ? { excerptColumn: caret } : {};
}

// ---- source text ----

/**
 * The lines of a YAML text as an excerpt may show them, each with the map of its columns (a
 * caret under a masked line goes where the column of the text points): every secret field's
 * value masked, on every line it spans, and every URL password. Reads the text line by line with indentation and
 * flow brackets rather than with a YAML parser, so it holds where the parser gives up: a
 * continuation line at the wrong indent, a tab in a block scalar, a map where a secret string
 * belongs. A secret value goes on until a line at or left of its key that starts another entry;
 * anything else after it (a line the parser could not place) is taken as part of it.
 * Linear in the text; computed once per document, whatever number of problems point into it.
 */
export function maskedLines(text: string, fields: SecretFields): Masked[] {
  const lines = text.split(/\r?\n/);
  if (fields.empty) return lines.map((line) => maskSpans(line, urlPasswordSpans(line)));
  const out: Masked[] = [];
  let stack: { indent: number; at: SecretCursor; item: boolean }[] = [];
  /** A secret value that may continue on the next lines: the column of its key. */
  let region: number | undefined;
  let flow: FlowState | undefined;
  for (const line of lines) {
    const spans: [number, number][] = [];
    const indent = /^[ \t]*/.exec(line)![0].length;
    const content = line.slice(indent);
    if (/^(---|\.\.\.)(\s|$)/.test(line)) {
      stack = [];
      region = undefined;
      flow = undefined;
    } else if (flow) {
      flow = scanFlow(line, 0, flow, fields, spans);
    } else if (content === '') {
      // blank: nothing to hide, and a block scalar may go on after it
    } else if (region !== undefined && (indent > region || !opensEntry(content))) {
      spans.push([indent, line.length]);
    } else if (content.startsWith('#')) {
      region = undefined;
    } else {
      region = undefined;
      let col = indent;
      // `- ` entries, possibly several on one line (`- - x`), each one level of list.
      while (line[col] === '-' && (col + 1 === line.length || line[col + 1] === ' ' || line[col + 1] === '\t')) {
        while (stack.length > 0 && (stack[stack.length - 1]!.indent > col || (stack[stack.length - 1]!.indent === col && stack[stack.length - 1]!.item))) stack.pop();
        stack.push({ indent: col, at: fields.step(stack[stack.length - 1]?.at ?? fields.root, '*'), item: true });
        col++;
        while (line[col] === ' ' || line[col] === '\t') col++;
      }
      const rest = line.slice(col);
      const key = keyAt(rest);
      if (key) {
        while (stack.length > 0 && stack[stack.length - 1]!.indent >= col) stack.pop();
        const at = fields.step(stack[stack.length - 1]?.at ?? fields.root, key.name);
        const valueAt = col + key.valueOffset;
        const value = valueText(line, valueAt);
        if (at.inside) {
          if (value.start < line.length) spans.push([value.start, line.length]);
          region = col;
          if (value.empty) stack.push({ indent: col, at, item: false });
        } else if (value.empty) {
          stack.push({ indent: col, at, item: false });
        } else if (line[value.start] === '{' || line[value.start] === '[') {
          flow = scanFlow(line, value.start, { frames: [], base: at, maskDepth: -1 }, fields, spans);
        }
      } else if (rest !== '' && !rest.startsWith('#')) {
        // A list entry's own value.
        const at = stack[stack.length - 1]?.at ?? fields.root;
        if (col > indent && at.inside) {
          spans.push([col, line.length]);
          region = indent;
        } else if (col > indent && (rest[0] === '{' || rest[0] === '[')) {
          flow = scanFlow(line, col, { frames: [], base: at, maskDepth: -1 }, fields, spans);
        }
      }
    }
    // One mask pass with the URL passwords, so the column map covers every mask on the line.
    out.push(maskSpans(line, [...spans, ...urlPasswordSpans(line)]));
  }
  return out;
}

/**
 * A key at the start of `text` (`name:`, `"name":`), with where its value starts; undefined when
 * the text is no key. A scan, not a regular expression: a long line costs one pass.
 */
function keyAt(text: string): { name: string; valueOffset: number } | undefined {
  const first = text[0];
  if (first === undefined) return undefined;
  const colonAfter = (j: number): boolean => text[j] === ':' && (j + 1 >= text.length || text[j + 1] === ' ' || text[j + 1] === '\t');
  if (first === '"' || first === "'") {
    const end = scalarEnd(text, 0, false);
    let j = end;
    while (text[j] === ' ' || text[j] === '\t') j++;
    if (!colonAfter(j)) return undefined;
    const inner = text.slice(1, end - 1);
    return { name: first === '"' ? unescapeDouble(inner) : inner.replace(/''/g, "'"), valueOffset: j + 1 };
  }
  if ('#{}[],:?&*!|>%@`'.includes(first) || (first === '-' && (text.length === 1 || text[1] === ' ' || text[1] === '\t'))) return undefined;
  for (let j = 1; j < text.length; j++) {
    if (colonAfter(j)) return { name: text.slice(0, j).trimEnd(), valueOffset: j + 1 };
    if (text[j] === '#' && (text[j - 1] === ' ' || text[j - 1] === '\t')) return undefined;
  }
  return undefined;
}

function unescapeDouble(s: string): string {
  try {
    return JSON.parse(`"${s}"`) as string;
  } catch {
    return s;
  }
}

/** Whether a line's content starts a new entry (a key or a list item) rather than continuing a value. */
function opensEntry(content: string): boolean {
  return /^-([ \t]|$)/.test(content) || keyAt(content) !== undefined;
}

/** Where the value after a key starts, skipping blanks, an anchor and a tag; empty when only a comment or nothing follows. */
function valueText(line: string, from: number): { start: number; empty: boolean } {
  let i = from;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] !== '&' && line[i] !== '!') break;
    while (i < line.length && line[i] !== ' ' && line[i] !== '\t') i++;
  }
  return { start: i, empty: i >= line.length || line[i] === '#' };
}

interface FlowFrame {
  kind: 'map' | 'seq';
  at: SecretCursor;
  key?: string;
  afterColon: boolean;
}

interface FlowState {
  frames: FlowFrame[];
  /** Where the block key or list entry whose value the flow collection is stands. */
  base: SecretCursor;
  /** Depth at which a secret collection opened (everything inside it is masked), or -1. */
  maskDepth: number;
}

/**
 * Reads flow collections (`{a: 1, b: [x]}`) from `from` to the end of the line, adding the spans
 * of secret values to `spans`. Returns the state when a collection is still open at the end of the
 * line (it goes on on the next one), undefined when all are closed.
 */
function scanFlow(line: string, from: number, st: FlowState, fields: SecretFields, spans: [number, number][]): FlowState | undefined {
  const valueAt = (): SecretCursor => {
    const top = st.frames[st.frames.length - 1];
    if (!top) return st.base;
    return fields.step(top.at, top.kind === 'seq' ? '*' : (top.key ?? ''));
  };
  let maskFrom = st.maskDepth >= 0 ? from : -1;
  let i = from;
  while (i < line.length) {
    const c = line[i]!;
    const top = st.frames[st.frames.length - 1];
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) {
      break;
    } else if (c === '{' || c === '[') {
      const at = valueAt();
      if (st.maskDepth < 0 && at.inside) {
        st.maskDepth = st.frames.length;
        maskFrom = i;
      }
      st.frames.push({ kind: c === '{' ? 'map' : 'seq', at, afterColon: false });
      i++;
    } else if (c === '}' || c === ']') {
      st.frames.pop();
      i++;
      if (st.maskDepth >= 0 && st.frames.length <= st.maskDepth) {
        spans.push([maskFrom, i]);
        st.maskDepth = -1;
        maskFrom = -1;
      }
      if (st.frames.length === 0) {
        if (maskFrom >= 0) spans.push([maskFrom, line.length]);
        return undefined;
      }
    } else if (c === ',') {
      if (top) {
        top.key = undefined;
        top.afterColon = false;
      }
      i++;
    } else if (c === ':' && top?.kind === 'map' && !top.afterColon) {
      top.afterColon = true;
      i++;
    } else {
      const end = scalarEnd(line, i, st.frames.length > 0);
      if (top?.kind === 'map' && !top.afterColon) {
        const raw = line.slice(i, end).trim();
        top.key = /^["']/.test(raw) ? raw.slice(1, -1) : raw;
      } else if (st.maskDepth < 0 && valueAt().inside) {
        spans.push([i, end]);
      }
      i = Math.max(end, i + 1);
    }
  }
  if (maskFrom >= 0) spans.push([maskFrom, line.length]);
  return st.frames.length > 0 ? st : undefined;
}

/** End of the scalar starting at `i`: a quoted string to its closing quote (or the line's end), a plain one up to an indicator. */
function scalarEnd(line: string, i: number, inFlow: boolean): number {
  const q = line[i];
  if (q === '"' || q === "'") {
    for (let j = i + 1; j < line.length; j++) {
      if (q === '"' && line[j] === '\\') j++;
      else if (line[j] === q) {
        if (q === "'" && line[j + 1] === "'") j++;
        else return j + 1;
      }
    }
    return line.length;
  }
  let j = i;
  while (j < line.length) {
    const c = line[j]!;
    if (inFlow && (c === ',' || c === '}' || c === ']' || c === '[' || c === '{')) break;
    if (c === ':' && (j + 1 >= line.length || /[\s,}\]]/.test(line[j + 1]!))) break;
    if (c === '#' && j > i && /\s/.test(line[j - 1]!)) break;
    j++;
  }
  return j;
}

/** A text with secrets masked, and where a column of the original lands in it. */
export interface Masked {
  text: string;
  /** The 1-based column in `text` of 1-based column `c` of the original (a column inside a mask: the mask's start). */
  column(c: number): number;
}

/**
 * The one way anything is masked: each span (`[from, to)`, 0-based, overlaps merged) of `text`
 * replaced by the same fixed MASK, whatever its length, so a mask never tells how long the secret
 * was. Columns after a mask move; `column` maps them, so a caret under an excerpt still points at
 * the same place and a reported column gives no length away either.
 */
export function maskSpans(text: string, spans: readonly (readonly [number, number])[]): Masked {
  const merged: [number, number][] = [];
  for (const [from, to] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (to <= from) continue;
    const last = merged[merged.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  if (merged.length === 0) return { text, column: (c) => c };
  let out = '';
  let at = 0;
  for (const [from, to] of merged) {
    out += text.slice(at, from) + MASK;
    at = to;
  }
  out += text.slice(at);
  return {
    text: out,
    column(c) {
      const i = c - 1;
      let shift = 0;
      for (const [from, to] of merged) {
        if (i < from) break;
        if (i < to) return from + shift + 1;
        shift += MASK.length - (to - from);
      }
      return c + shift;
    },
  };
}

/**
 * A values tree as it may be printed: every non-empty scalar at or inside a secret field replaced
 * by MASK, and every other string with the `secrets` (values the user wrote at secret fields) and
 * URL passwords masked inside it. An empty or null secret stays as it is: it shows the field is unset.
 */
export function maskTree(data: unknown, fields: SecretFields, secrets: ReadonlySet<string>, at: SecretCursor = fields.root): unknown {
  if (Array.isArray(data)) return data.map((x, i) => maskTree(x, fields, secrets, fields.step(at, i)));
  if (data !== null && typeof data === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(data)) Object.defineProperty(out, k, { value: maskTree(x, fields, secrets, fields.step(at, k)), enumerable: true, writable: true, configurable: true });
    return out;
  }
  if (at.inside && data !== null && data !== '' && data !== undefined) return MASK;
  if (at.text && typeof data === 'string') return redact(maskSpans(data, configTextSecretSpans(data)).text, secrets);
  return typeof data === 'string' ? redact(data, secrets) : data;
}
