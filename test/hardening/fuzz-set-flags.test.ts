// Issue 8, fuzzing of the --set family: --set, --set-string, --set-json and --set-file arguments,
// grammar-aware (real values paths, escapes, indices, lists, JSON) and mutated character by
// character, through `lint` and `render` in-process. Whatever the argument: no uncaught exception,
// no internal error, no stack trace, exit 0, 1 or 2, a bounded time per input.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { cli, expectContract, expectRenderContract } from './_cli.ts';
import { fcParams, runs, seedTitle } from './_seed.ts';
import { PATHS, setFlags } from './_set-arb.ts';

// An everyday run; AGENTPLAT_FUZZ_RUNS scales it (docs/hardening.md).
const RUNS = 3_000;

describe('fuzz: --set, --set-string, --set-json and --set-file arguments', () => {
  const dir = tempDir('agentplat-fuzz-set-');
  const file = join(dir, 'value.txt');
  writeFileSync(file, 'from a file, with: yaml-ish text\nand a second line\n');

  it('the grammar knows the values paths of both revisions', () => {
    expect(PATHS.length).toBeGreaterThan(500);
  });

  it(`lint and render: exit 0/1/2, no crash, no trace ${seedTitle(300, RUNS)}`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(setFlags(file), fc.constantFrom('A', 'B'), fc.nat({ max: 3 }), async (flags, revision, pick) => {
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
    expect(n).toBeGreaterThanOrEqual(runs(RUNS));
  });
});
