// The precomputed seam (src/precomputed.ts) has two implementations: the plain one computes every
// member from the sources, the built one reads what the build wrote to dist/generated/. Both run
// here, in this process, on the same commands: the output and exit code must be byte-identical,
// and every member of the built implementation must have been read by some command.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemoryIo } from '../src/cli/io.ts';
import { run } from '../src/cli/program.ts';
import { builtPrecomputed } from '../src/pipeline/precomputed-built.ts';
import { plainPrecomputed } from '../src/pipeline/precomputed-plain.ts';
import { installPrecomputed, type Precomputed } from '../src/precomputed.ts';
import { GOLDEN_CASES, goldenArgv, ROOT as GOLDEN_ROOT } from './render/_golden.ts';
import { ensureBuilt, ROOT } from './cli/binary.ts';
import { writeFailingCorpus } from './crds/failing-corpus.ts';

beforeAll(() => ensureBuilt());

/** The built implementation, counting the reads of each member. */
const reads = new Map<string, number>();
const built = Object.fromEntries(
  Object.entries(builtPrecomputed(() => join(ROOT, 'dist', 'generated'))).map(([name, member]) => [
    name,
    (...args: unknown[]) => {
      reads.set(name, (reads.get(name) ?? 0) + 1);
      return (member as (...a: unknown[]) => unknown)(...args);
    },
  ]),
) as unknown as Precomputed;

async function runOn(impl: Precomputed, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const previous = installPrecomputed(impl, true);
  try {
    const io = createMemoryIo({ cwd: ROOT });
    const code = await run(argv, io);
    return { code, out: io.out, err: io.err };
  } finally {
    installPrecomputed(previous, true);
  }
}

async function expectParity(argv: string[]): Promise<{ stdout: string; code: number }> {
  const plain = await runOn(plainPrecomputed, argv);
  const fromBuild = await runOn(built, argv);
  const hint = 'the built implementation (dist/generated/) differs from the plain one: the build wrote something else than the plain members return';
  expect(fromBuild.code, `${hint}\n${fromBuild.err}`).toBe(plain.code);
  expect(fromBuild.out, hint).toBe(plain.out);
  expect(fromBuild.err, hint).toBe(plain.err);
  return { stdout: plain.out, code: plain.code };
}

const LINT_FIXTURES = readdirSync(join(ROOT, 'fixtures', 'lint'))
  .filter((f) => f.endsWith('.yaml'))
  .sort();

describe('plain vs built precomputed members: byte-identical output and the same exit code', () => {
  it.each(['A', 'B'])('render of the defaults of revision %s', async (rev) => {
    const { stdout, code } = await expectParity(['render', '-r', rev]);
    expect(code).toBe(0);
    expect(stdout.length).toBeGreaterThan(1000);
  });

  it.each(GOLDEN_CASES)('render of the golden values %s', async (name) => {
    const { code } = await expectParity(goldenArgv(join(GOLDEN_ROOT, name)));
    expect(code).toBe(0);
  });

  describe.each(['A', 'B'])('lint --format json, revision %s', (rev) => {
    it.each(LINT_FIXTURES)('%s', async (fixture) => {
      await expectParity(['lint', '-r', rev, '--format', 'json', join('fixtures', 'lint', fixture)]);
    });
  });

  it('lint problems that point into the defaults file have the same line and column in both', async () => {
    // The built members read positions computed at build time; the plain ones parse values/revision-*.yaml.
    let located = 0;
    for (const rev of ['A', 'B']) {
      // a user value that leaves the database alone: the bundled-database note points into the defaults
      const { stdout } = await expectParity(['lint', '-r', rev, '--set', 'ipv6=true', '--format', 'json', '--verbose']);
      const report = JSON.parse(stdout) as { files: { file: string | null; problems: { line?: number; column?: number }[] }[] };
      for (const group of report.files) {
        if (group.file === null) located += group.problems.filter((p) => p.line !== undefined && p.column !== undefined).length;
      }
    }
    expect(located, 'no problem points into a defaults file, so this test checks nothing').toBeGreaterThan(0);
  });

  it('crds, yaml and json', async () => {
    expect((await expectParity(['crds'])).code).toBe(0);
    expect((await expectParity(['crds', '-o', 'json'])).code).toBe(0);
  });

  it('validate fixtures/resources, text and json', async () => {
    expect((await expectParity(['validate', 'fixtures/resources'])).code).toBe(0);
    expect((await expectParity(['validate', '--format', 'json', 'fixtures/resources'])).code).toBe(0);
  });

  it('validate on every failing resource of the CRD tests: the same problems, lines and columns', async () => {
    // The built members validate with generated standalone code and data (dist/generated/crd-*);
    // the plain ones compile the schemas and read the model at run time.
    const dir = mkdtempSync(join(tmpdir(), 'agentplat-parity-crds-'));
    try {
      const names = writeFailingCorpus(dir);
      expect(names.length).toBeGreaterThan(100);
      const text = await expectParity(['validate', dir]);
      expect(text.code).toBe(1);
      const { stdout, code } = await expectParity(['validate', '--format', 'json', dir]);
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as { files: { file: string; problems: { rule: string; line?: number; column?: number }[] }[] };
      const located = report.files.flatMap((f) => f.problems).filter((p) => p.line !== undefined && p.column !== undefined);
      expect(located.length).toBeGreaterThan(150);
      // Every kind's generated validator ran and reported something.
      for (const rule of ['crd/schema', 'crd/unknown-field', 'crd/cel', 'crd/unknown-kind', 'crd/unknown-version', 'crd/yaml-syntax']) {
        expect(located.some((p) => p.rule === rule), rule).toBe(true);
      }
      // Each failing file but the one holding only empty documents reports a problem.
      expect(report.files.filter((f) => f.problems.length === 0).map((f) => f.file)).toEqual([join(dir, 'edge-empty-docs.yaml')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('values, schema, docs and version of each revision', async () => {
    for (const rev of ['A', 'B']) {
      for (const cmd of [['values'], ['schema'], ['docs'], ['version', '-o', 'json']]) expect((await expectParity([...cmd, '-r', rev])).code).toBe(0);
    }
  });

  // Last, after every command above: none of the members went unchecked.
  it('every member of the built implementation was read by one of the commands above', () => {
    expect(Object.keys(plainPrecomputed).filter((m) => !reads.get(m))).toEqual([]);
  });
});
