// Issue 8, the process-level contract: a sample of the fuzz inputs (values files, --set flags,
// custom resources) through the real executable (bin/agentplat → dist/), as users and CI run it.
// The in-process fuzz suites run thousands of inputs each; a process per input would be too slow, so
// this sample proves that what holds in-process holds for the process too: exit 0, 1 or 2, no
// signal (no hang), no stack trace and no Node warning on stderr, nothing on stdout when render fails.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { ensureBuilt, runBin, STACK_TRACE, type RunResult } from '../cli/binary.ts';
import { breathe } from '../helpers/breathe.ts';
import { corpus, mutatedYaml } from './_mutate.ts';
import { FILES, structural } from './_resource-arb.ts';
import { runs, SEED } from './_seed.ts';
import { setFlags } from './_set-arb.ts';

// Processes per entry point in an everyday run; AGENTPLAT_FUZZ_RUNS scales it (docs/hardening.md).
const PER_ENTRY = runs(6);

beforeAll(() => ensureBuilt());

function expectProcessContract(r: RunResult, what: string, render: boolean): void {
  expect(r.signal, `killed (hang guard)\n${what}`).toBeNull();
  expect(r.code, `${what}\n${r.stderr}`).toBeOneOf([0, 1, 2]);
  expect(r.stderr, what).not.toMatch(STACK_TRACE);
  expect(r.stdout, what).not.toMatch(STACK_TRACE);
  expect(r.stderr, `a Node warning on stderr\n${what}`).not.toMatch(/\(node:\d+\)|--trace-warnings/);
  if (render && r.code !== 0) expect(r.stdout, what).toBe('');
}

describe(`the real executable keeps the contract on a sample of the fuzz inputs (seed ${SEED}, ${3 * PER_ENTRY} processes)`, () => {
  it('values files through lint and render', async () => {
    const docs = corpus('fixtures/lint', 'fixtures/subcharts', 'fixtures/bad-input', 'fixtures/render', 'values');
    for (const [i, text] of fc.sample(mutatedYaml(docs), { seed: SEED + 500, numRuns: PER_ENTRY }).entries()) {
      await breathe();
      const argv = i % 2 === 0 ? ['render', '--skip-crds', '-f', '-'] : ['lint', '--format', i % 4 === 1 ? 'sarif' : 'text', '-f', '-'];
      expectProcessContract(runBin(argv, { stdin: text }), `agentplat ${argv.join(' ')} <<< ${JSON.stringify(text.slice(0, 2000))}`, argv[0] === 'render');
    }
  });

  it('--set, --set-string, --set-json and --set-file arguments', async () => {
    const dir = tempDir('agentplat-binary-sample-');
    const file = join(dir, 'value.txt');
    writeFileSync(file, 'text from a file\n');
    for (const [i, flags] of fc.sample(setFlags(file), { seed: SEED + 501, numRuns: PER_ENTRY }).entries()) {
      await breathe();
      // A command line cannot hold a NUL character (the in-process suite covers it).
      const argv = [i % 2 === 0 ? 'render' : 'lint', ...flags.flat().map((a) => a.replace(/\0/g, ''))];
      expectProcessContract(runBin(argv, { cwd: dir }), `agentplat ${argv.map((a) => JSON.stringify(a)).join(' ')}`, argv[0] === 'render');
    }
  });

  it('custom resources through validate', async () => {
    for (const [i, text] of fc.sample(fc.oneof(structural, mutatedYaml(FILES)), { seed: SEED + 502, numRuns: PER_ENTRY }).entries()) {
      await breathe();
      const argv = ['validate', '--format', i % 2 === 0 ? 'json' : 'text', '-'];
      expectProcessContract(runBin(argv, { stdin: text }), `agentplat ${argv.join(' ')} <<< ${JSON.stringify(text.slice(0, 2000))}`, false);
    }
  });
});
