// Arguments of the --set family for the fuzz suites: grammar-aware (every values path of both
// revisions, escapes, indices, lists, JSON values, files) and mutated character by character.
import fc from 'fast-check';
import { valuesSchema, type SchemaNode } from './_values-arb.ts';

/** Every values path of both revisions, as --set writes them (`a.b`, lists as `a[0]`). */
function schemaPaths(): string[] {
  const out = new Set<string>();
  const walk = (n: SchemaNode, path: string) => {
    if (path) out.add(path);
    for (const [k, sub] of Object.entries(n.properties ?? {})) walk(sub, path ? `${path}.${k.replace(/([.,=\\[\]])/g, '\\$1')}` : k.replace(/([.,=\\[\]])/g, '\\$1'));
    if (n.items) walk(n.items, `${path}[0]`);
  };
  walk(valuesSchema('A'), '');
  walk(valuesSchema('B'), '');
  return [...out].sort();
}
export const PATHS = schemaPaths();

const segment = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9-]{0,10}$/) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom('a\\.b', 'x\\,y', '\\=', '__proto__', 'constructor', 'prototype', 'app.io/team', '😀', '') },
);
const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PATHS) },
  { weight: 1, arbitrary: fc.array(fc.tuple(segment, fc.option(fc.oneof(fc.nat({ max: 5 }), fc.constantFrom(65536, 65537, 99999999, -1)), { freq: 4 })), { minLength: 1, maxLength: 5 }).map((segs) => segs.map(([s, i]) => (i === null ? s : `${s}[${i}]`)).join('.')) },
  { weight: 1, arbitrary: fc.integer({ min: 25, max: 40 }).map((n) => Array.from({ length: n }, (_, i) => `k${i}`).join('.')) },
);
const plainValue = fc.oneof(
  fc.constantFrom('true', 'false', 'null', 'NULL', '0', '007', '1.5', '0x1', '9007199254740993', '-1', '', 'a\\,b', '\\', 'x\\', '{a,b}', '{}', '{a', '{a}b', 'a=b', 'http://x:1/a?b=c'),
  fc.string({ maxLength: 12 }),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }).map((xs) => `{${xs.join(',')}}`),
);
const jsonValue = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.constantFrom('', ' ', '{', '[1,', '"unterminated', '{"a":1}x', 'nul', '1e999', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'),
);

export type Kind = 'set' | 'set-string' | 'set-json' | 'set-file';
const assignment = (kind: Kind, file: string) =>
  fc.tuple(key, kind === 'set-json' ? jsonValue : kind === 'set-file' ? fc.constantFrom(file, 'missing.txt', '', '/dev/null', '.') : plainValue).map(([k, v]) => `${k}=${v}`);

/** One flag argument: assignments joined by commas, maybe mutated character by character. */
export const argument = (kind: Kind, file: string) =>
  fc.tuple(
    fc.array(assignment(kind, file), { minLength: 1, maxLength: kind === 'set-file' ? 1 : 3 }),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom('', '=', ',', '.', '[', ']', '{', '}', '\\', '"', ' ', '\n', '\u0000', '😀')), { maxLength: 3 }),
  ).map(([parts, edits]) => edits.reduce((s, [at, del, ins]) => s.slice(0, at % (s.length + 1)) + ins + s.slice((at % (s.length + 1)) + del), parts.join(',')));

/** One to three flags of random kinds; `file` is a readable file for --set-file. */
export const setFlags = (file: string) =>
  fc.array(
    fc.constantFrom<Kind>('set', 'set-string', 'set-json', 'set-file').chain((k) => argument(k, file).map((arg) => [`--${k}`, arg] as const)),
    { minLength: 1, maxLength: 3 },
  );
