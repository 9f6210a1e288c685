// Reads values files, custom-resource files (validate) and manifests (diff) without the general parser: the block structure of
// ./block-reader.ts, plus comments, single- and double-quoted scalars, one-line flow collections,
// literal block scalars and plain scalars resolved by YAML 1.2's core schema (as the yaml library
// reads with version 1.2), and whole JSON documents over any number of lines (./json-document.ts).
// It gives data only; a file with a problem is read again by the library for positions. Anything
// outside the dialect (folded blocks, anchors, aliases, tags, directives, multi-line scalars,
// duplicate keys, unusual characters, deep nesting, …) throws, and ./read.ts, the only caller, has
// the yaml library read the text, so the result never depends on which reader ran
// (test/yaml/read-plain.test.ts compares them). What it saves is in docs/decisions.md.

import { blockDocuments, jsonStringEnd, MAX_DEPTH, Unsupported, type Dialect } from './block-reader.ts';
import { readJsonDocument } from './json-document.ts';

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
  simpleValue: resolveCore,
};

/**
 * The documents of a resource file one at a time, each read when it is asked for; where the
 * yaml library must read the text it throws an error `leavesDialect` accepts (possibly after
 * some documents).
 */
export function* plainYamlDocuments(text: string): Generator<unknown, void, undefined> {
  const lf = text.replace(/\r\n/g, '\n');
  const first = lf.trimStart().charCodeAt(0);
  if ((first === 123 /* { */ || first === 91 /* [ */) && !PLAIN.refuse.test(lf)) {
    const json = readJsonDocument(lf);
    if (json !== undefined) {
      yield json;
      return;
    }
  }
  yield* blockDocuments(lf, PLAIN);
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
