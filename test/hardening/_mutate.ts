// Mutations of YAML text for the fuzz suites: the kinds of damage real files suffer (deleted or
// duplicated lines, indentation shifts, truncation, stray characters) and the constructs that
// stress a YAML reader (anchors and aliases, tags, huge numbers, deep nesting, document markers).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Every YAML file under the given folders of the repository, as text. */
export function corpus(...dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const full = join(d, e);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.ya?ml$/.test(e) && !e.startsWith('expected')) out.push(readFileSync(full, 'utf8'));
    }
  };
  for (const d of dirs) walk(join(ROOT, d));
  return out;
}

const STRAY = [':', ': ', '-', '- ', '?', '{', '}', '[', ']', ',', '&', '*', '!', '|', '>', '#', '%', '@', '`', '"', "'", '\\', '\t', '\n', '\r', '\r\n', ' ', '\u00a0', '\ufeff', '\u2028', '\u0085', '\u200b', '😀', 'é', '\u0000', '\u0007', '\u001b'];
const SCALARS = ['1e400', '-1e400', '99999999999999999999999999', '0x7fffffffffffffff', '0o777', '.inf', '-.Inf', '.nan', 'NaN', '~', 'null', 'yes', 'no', 'on', '0.0000000000000000000001', '1_000', '2001-12-14t21:59:43.10-05:00', "''", '""', '"\\u0000"', '"\\x00"', '"\\ud800"', 'true', 'False'];
const TAGS = ['!!str ', '!!int ', '!!float ', '!!bool ', '!!null ', '!!binary ', '!!map ', '!!seq ', '!!set ', '!!omap ', '!!timestamp ', '!foo ', '!<tag:yaml.org,2002:str> ', '!! ', '!!js/function '];
const MARKERS = ['---\n', '...\n', '--- |\n', '%YAML 1.1\n---\n', '%TAG ! tag:example.com,2000:\n---\n', '? complex\n: key\n', '<<: *a\n', 'a: &a\n  b: *a\n'];

export type Mutation =
  | { op: 'delete'; at: number; len: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'truncate'; at: number }
  | { op: 'dupLine'; line: number }
  | { op: 'delLine'; line: number }
  | { op: 'swapLines'; a: number; b: number }
  | { op: 'indent'; line: number; by: number }
  | { op: 'scalar'; line: number; text: string }
  | { op: 'anchor'; line: number; name: string; alias: boolean }
  | { op: 'nest'; at: number; depth: number; flow: boolean };

const pos = fc.nat({ max: 1_000_000 });

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: pos, len: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('insert' as const), at: pos, text: fc.oneof(fc.constantFrom(...STRAY), fc.constantFrom(...TAGS), fc.constantFrom(...MARKERS), fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 })) }),
  fc.record({ op: fc.constant('truncate' as const), at: pos }),
  fc.record({ op: fc.constant('dupLine' as const), line: pos }),
  fc.record({ op: fc.constant('delLine' as const), line: pos }),
  fc.record({ op: fc.constant('swapLines' as const), a: pos, b: pos }),
  fc.record({ op: fc.constant('indent' as const), line: pos, by: fc.integer({ min: -4, max: 6 }) }),
  fc.record({ op: fc.constant('scalar' as const), line: pos, text: fc.oneof(fc.constantFrom(...SCALARS), fc.constantFrom(...TAGS).map((t) => `${t}x`)) }),
  fc.record({ op: fc.constant('anchor' as const), line: pos, name: fc.constantFrom('a', 'b', 'x1', 'a'), alias: fc.boolean() }),
  fc.record({ op: fc.constant('nest' as const), at: pos, depth: fc.oneof(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 60, max: 400 })), flow: fc.boolean() }),
);

/** Applies one mutation; positions are taken modulo the text's length or line count. */
export function mutate(text: string, m: Mutation): string {
  const lines = text.split('\n');
  const L = (n: number) => n % Math.max(1, lines.length);
  const P = (n: number) => n % (text.length + 1);
  switch (m.op) {
    case 'delete':
      return text.slice(0, P(m.at)) + text.slice(P(m.at) + m.len);
    case 'insert':
      return text.slice(0, P(m.at)) + m.text + text.slice(P(m.at));
    case 'truncate':
      return text.slice(0, P(m.at));
    case 'dupLine':
      lines.splice(L(m.line), 0, lines[L(m.line)] ?? '');
      return lines.join('\n');
    case 'delLine':
      lines.splice(L(m.line), 1);
      return lines.join('\n');
    case 'swapLines': {
      const a = L(m.a);
      const b = L(m.b);
      [lines[a], lines[b]] = [lines[b] ?? '', lines[a] ?? ''];
      return lines.join('\n');
    }
    case 'indent': {
      const i = L(m.line);
      const l = lines[i] ?? '';
      lines[i] = m.by >= 0 ? ' '.repeat(m.by) + l : l.replace(new RegExp(`^ {0,${-m.by}}`), '');
      return lines.join('\n');
    }
    case 'scalar': {
      const i = L(m.line);
      lines[i] = (lines[i] ?? '').replace(/(:\s+|-\s+)\S.*$/, `$1${m.text}`);
      return lines.join('\n');
    }
    case 'anchor': {
      const i = L(m.line);
      lines[i] = (lines[i] ?? '').replace(/(:\s*|-\s+)(\S.*)?$/, (_, sep: string, rest?: string) => (m.alias ? `${sep}*${m.name}` : `${sep}&${m.name} ${rest ?? ''}`));
      return lines.join('\n');
    }
    case 'nest': {
      const open = m.flow ? '['.repeat(m.depth) : Array.from({ length: m.depth }, (_, k) => `\n${'  '.repeat(k + 1)}k${k}:`).join('');
      const close = m.flow ? ']'.repeat(m.depth) : ' 1\n';
      const at = P(m.at);
      return `${text.slice(0, at)}${m.flow ? ` ${open}${close}` : open + close}${text.slice(at)}`;
    }
  }
}

/** A corpus document with one to five mutations applied. */
export function mutatedYaml(docs: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...docs), fc.array(mutationArb, { minLength: 1, maxLength: 5 })).map(([doc, ms]) => ms.reduce(mutate, doc));
}
