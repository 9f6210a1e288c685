// Issue 8, fuzzing of the --set family: --set, --set-string, --set-json and --set-file arguments,
// grammar-aware (real values paths, escapes, indices, lists, JSON) and mutated character by
// character, through `lint` and `render` in-process. Whatever the argument: no uncaught exception,
// no internal error, no stack trace, exit 0, 1 or 2, a bounded time per input.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cli, expectContract, expectRenderContract } from './_cli.ts';
import { fcParams, seedTitle } from './_seed.ts';
import { valuesSchema, type SchemaNode } from './_values-arb.ts';

const RUNS = 10_000;

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
const PATHS = schemaPaths();

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

type Kind = 'set' | 'set-string' | 'set-json' | 'set-file';
const assignment = (kind: Kind, file: string) =>
  fc.tuple(key, kind === 'set-json' ? jsonValue : kind === 'set-file' ? fc.constantFrom(file, 'missing.txt', '', '/dev/null', '.') : plainValue).map(([k, v]) => `${k}=${v}`);

/** One flag argument: assignments joined by commas, maybe mutated character by character. */
const argument = (kind: Kind, file: string) =>
  fc.tuple(
    fc.array(assignment(kind, file), { minLength: 1, maxLength: kind === 'set-file' ? 1 : 3 }),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom('', '=', ',', '.', '[', ']', '{', '}', '\\', '"', ' ', '\n', '\u0000', '😀')), { maxLength: 3 }),
  ).map(([parts, edits]) => edits.reduce((s, [at, del, ins]) => s.slice(0, at % (s.length + 1)) + ins + s.slice((at % (s.length + 1)) + del), parts.join(',')));

describe('fuzz: --set, --set-string, --set-json and --set-file arguments', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentplat-fuzz-set-'));
  const file = join(dir, 'value.txt');
  writeFileSync(file, 'from a file, with: yaml-ish text\nand a second line\n');

  it('the grammar knows the values paths of both revisions', () => {
    expect(PATHS.length).toBeGreaterThan(500);
  });

  it(`lint and render: exit 0/1/2, no crash, no trace, no hang ${seedTitle(300, RUNS)}`, async () => {
    let n = 0;
    const kinds = fc.constantFrom<Kind>('set', 'set-string', 'set-json', 'set-file');
    const flag = kinds.chain((k) => argument(k, file).map((arg) => [`--${k}`, arg] as const));
    await fc.assert(
      fc.asyncProperty(fc.array(flag, { minLength: 1, maxLength: 3 }), fc.constantFrom('A', 'B'), fc.nat({ max: 3 }), async (flags, revision, pick) => {
        n++;
        const render = pick === 0;
        const argv = [render ? 'render' : 'lint', '-r', revision, ...(render ? ['--skip-crds'] : ['--format', 'json']), ...flags.flat()];
        const what = `agentplat ${argv.map((a) => JSON.stringify(a)).join(' ')}`;
        const r = await cli(argv, undefined, dir);
        if (render) expectRenderContract(r, what);
        else {
          expectContract(r, what);
          if (r.code !== 2) expect(() => JSON.parse(r.out), what).not.toThrow();
        }
      }),
      fcParams(300, RUNS),
    );
    expect(n).toBeGreaterThanOrEqual(RUNS);
  }, 120_000);
});
