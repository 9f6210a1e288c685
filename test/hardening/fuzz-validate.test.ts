// Issue 8, fuzzing of custom resources for `validate`: the example resources (fixtures/resources)
// mutated structurally (fields deleted, replaced by random JSON, unknown fields added, lists
// grown, kinds swapped) and as text (the values-file mutations: truncation, indentation, aliases,
// tags, deep nesting …), through `validate -` in-process. Whatever the document: no uncaught
// exception, no internal error, no stack trace, exit 0, 1 or 2, a bounded time per input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cli, expectContract } from './_cli.ts';
import { mutatedYaml } from './_mutate.ts';
import { FILES, OBJECTS, structural } from './_resource-arb.ts';
import { fcParams, runs, seedTitle } from './_seed.ts';

// An everyday run; AGENTPLAT_FUZZ_RUNS scales it (docs/hardening.md).
const RUNS = 3_000;

describe('fuzz: custom resources for validate', () => {
  it('the corpus holds every example resource', () => {
    expect(OBJECTS.length).toBeGreaterThanOrEqual(7);
  });

  it(`validate: exit 0/1/2, no crash, no trace, JSON reports parse ${seedTitle(400, RUNS)}`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof({ weight: 3, arbitrary: structural }, { weight: 2, arbitrary: mutatedYaml(FILES) }), fc.constantFrom('text', 'json'), async (text, format) => {
        n++;
        const argv = ['validate', '--format', format, '-'];
        const what = `agentplat ${argv.join(' ')} <<< ${JSON.stringify(text.slice(0, 3000))}`;
        const r = await cli(argv, text);
        expectContract(r, what);
        if (r.code !== 2 && format === 'json') expect(() => JSON.parse(r.out), what).not.toThrow();
      }),
      fcParams(400, RUNS),
    );
    expect(n).toBeGreaterThanOrEqual(runs(RUNS));
  });
});
