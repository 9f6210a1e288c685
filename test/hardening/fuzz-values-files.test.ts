// Issue 8, fuzzing of values files: mutated YAML (from the fixtures and both revisions' defaults)
// through `lint` and `render`, in-process. Whatever the input: no uncaught exception, no internal
// error (exit 3), no stack trace, exit 0, 1 or 2, a bounded time per input; render prints nothing
// on stdout when it fails, lint's machine formats stay well-formed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cli, expectContract, expectRenderContract } from './_cli.ts';
import { corpus, mutatedYaml } from './_mutate.ts';
import { fcParams, runs, seedTitle } from './_seed.ts';

// An everyday run; AGENTPLAT_FUZZ_RUNS scales it (docs/hardening.md).
const RUNS = 3_000;
const DOCS = corpus('fixtures/lint', 'fixtures/subcharts', 'fixtures/bad-input', 'fixtures/render', 'values');
const FORMATS = ['text', 'json', 'sarif', 'github', 'junit'] as const;

describe('fuzz: mutated values files', () => {
  it('the corpus holds the fixtures and the defaults of both revisions', () => {
    expect(DOCS.length).toBeGreaterThan(50);
  });

  // One entry point (the values-file reader), each input through lint (in a random format) or render.
  it(`lint and render: exit 0/1/2, no crash, no trace; render prints nothing on failure, reports stay well-formed ${seedTitle(200, RUNS)}`, async () => {
    const seen = { lint: 0, render: 0 };
    await fc.assert(
      fc.asyncProperty(mutatedYaml(DOCS), fc.constantFrom(...FORMATS), fc.constantFrom('A', 'B'), fc.constantFrom('lint -f', 'lint', 'render'), async (text, format, revision, how) => {
        const argv =
          how === 'render'
            ? ['render', '-r', revision, '--skip-crds', '-f', '-']
            : ['lint', '-r', revision, '--format', format, ...(how === 'lint' ? ['-'] : ['-f', '-'])];
        const what = `agentplat ${argv.join(' ')} <<< ${JSON.stringify(text.slice(0, 3000))}`;
        const r = await cli(argv, text);
        if (how === 'render') {
          seen.render++;
          expectRenderContract(r, what);
          return;
        }
        seen.lint++;
        expectContract(r, what);
        if (r.code === 2) expect(r.out, what).toBe('');
        else if (format === 'json' || format === 'sarif') expect(() => JSON.parse(r.out), what).not.toThrow();
      }),
      fcParams(200, RUNS),
    );
    expect(seen.lint + seen.render).toBeGreaterThanOrEqual(runs(RUNS));
    expect(Math.min(seen.lint, seen.render)).toBeGreaterThan(runs(RUNS) / 4);
  });
});
