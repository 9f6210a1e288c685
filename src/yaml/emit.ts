// Writes plain data (maps, lists, strings, numbers and BigInts, booleans, null) as block-style YAML.
// Why not the yaml library's stringifier: it is the slowest step of a render, it emits anchors
// for shared sub-objects, and it writes `yes`, `on` or `1_0` unquoted, which Kubernetes' YAML 1.1
// decoder reads as booleans and numbers. This emitter never emits anchors, quotes every scalar a
// YAML 1.1 or 1.2 reader could take for anything but a string, and writes multi-line strings as
// literal blocks so configs stay readable.

import { answerMemo } from '../answer-memos.ts';
import { isPlainSafe } from './plain-safe.ts';

const scalarCache = answerMemo('yaml scalars', new Map<string, string>());

function literalBlock(s: string, indent: string): string | undefined {
  if (/[\u0000-\u0008\u000b-\u001f\u007f\u0085\u2028\u2029\ufeff\r]/.test(s)) return undefined;
  let trailing = 0;
  while (trailing < s.length && s.charCodeAt(s.length - 1 - trailing) === 10) trailing++;
  const body = s.slice(0, s.length - trailing);
  if (body === '') return undefined;
  const lines = body.split('\n');
  if (lines.some((l) => l !== '' && l.trim() === '')) return undefined;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const indicator = lines[0]!.startsWith(' ') ? '2' : '';
  const extra = trailing > 1 ? '\n'.repeat(trailing - 1) : '';
  return `|${indicator}${chomp}\n${lines.map((l) => (l === '' ? '' : indent + l)).join('\n')}\n${extra}`;
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? String(Object.is(v, -0) ? 0 : v) : 'null';
  // An int64 past 2^53 (--set): its exact digits, a YAML integer.
  if (typeof v === 'bigint') return String(v);
  const s = String(v);
  let out = scalarCache.get(s);
  if (out === undefined) {
    out = isPlainSafe(s) ? s : JSON.stringify(s);
    if (scalarCache.size < 10_000) scalarCache.set(s, out);
  }
  return out;
}

/**
 * Whether two values are written alike by emitYaml, decided without writing them: maps key by key
 * in order (a key holding undefined is not written), lists item by item, scalars by their text.
 */
export function emittedAlike(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ea = emptyCollection(a);
  const eb = emptyCollection(b);
  if (ea || eb) return ea === eb;
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && emittedAlike(a[k], b[k]));
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => emittedAlike(x, b[i]));
  if (isMap(b) || Array.isArray(b)) return false;
  if (typeof a === 'string' && typeof b === 'string') return false; // a !== b: written apart
  // A string is never written as another kind's text (it is quoted when it could be read as one).
  return scalar(a) === scalar(b);
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function emptyCollection(v: unknown): string | undefined {
  if (Array.isArray(v)) return v.length === 0 ? '[]' : undefined;
  if (isMap(v)) {
    for (const k in v) if (Object.hasOwn(v, k)) return undefined;
    return '{}';
  }
  return undefined;
}

/** `value` after `key:` or `- `: inline text, or a newline plus the nested block. */
function valueText(v: unknown, indent: string): string {
  const empty = emptyCollection(v);
  if (empty) return ` ${empty}\n`;
  if (isMap(v)) return `\n${mapLines(v, indent)}`;
  if (Array.isArray(v)) return `\n${seqLines(v, indent)}`;
  if (typeof v === 'string' && v.includes('\n')) {
    const block = literalBlock(v, indent);
    return ` ${block ?? `${JSON.stringify(v)}\n`}`;
  }
  return ` ${scalar(v)}\n`;
}

// The text is built by concatenation: V8 keeps it as a rope until it is read, with no array of
// pieces to collect and join.
function mapLines(m: Record<string, unknown>, indent: string, firstPrefix?: string): string {
  let out = '';
  let prefix = firstPrefix ?? indent;
  const inner = `${indent}  `;
  for (const k of Object.keys(m)) {
    const v = m[k];
    if (v === undefined) continue;
    out += prefix + scalar(k) + ':' + valueText(v, inner);
    prefix = indent;
  }
  return out;
}

function seqLines(list: readonly unknown[], indent: string): string {
  let out = '';
  const inner = `${indent}  `;
  const dash = `${indent}- `;
  for (const item of list) {
    const empty = emptyCollection(item);
    if (empty) out += `${dash}${empty}\n`;
    else if (isMap(item)) out += mapLines(item, inner, dash);
    else if (Array.isArray(item)) out += `${indent}-\n${seqLines(item, inner)}`;
    else if (typeof item === 'string' && item.includes('\n')) {
      const block = literalBlock(item, inner);
      out += `${dash}${block ?? `${JSON.stringify(item)}\n`}`;
    } else out += `${dash}${scalar(item)}\n`;
  }
  return out;
}

/** One document's body (no `---`), ending with a newline. */
export function emitYaml(data: unknown): string {
  const empty = emptyCollection(data);
  if (empty) return `${empty}\n`;
  if (isMap(data)) return mapLines(data, '');
  if (Array.isArray(data)) return seqLines(data, '');
  if (typeof data === 'string' && data.includes('\n')) return literalBlock(data, '  ') ?? `${JSON.stringify(data)}\n`;
  return `${scalar(data)}\n`;
}
