// JavaScript's built-in names (`toString`, `constructor`, `__proto__`, …) are names like any other
// when a user writes them (issue 23, item 9): every lookup of a user-supplied name reads own
// properties only. Before, `--set toString=1` in revision B was "a key of revision A" and in A "a
// key of revision B", and `template --labels constructor=x` found a label every object "had".
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { createMemoryIo } from '../../src/cli/io.ts';
import { run } from '../../src/cli/program.ts';
import { lintValues } from '../../src/lint/lint.ts';
import { loadUserLayers } from '../../src/values/load.ts';
import { describeKey } from '../../src/chart/values-model.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { REVISION_IDS } from '../../src/chart/revisions.ts';

const BUILTINS = Object.getOwnPropertyNames(Object.prototype);
const name = fc.constantFrom(...BUILTINS);
const parent = fc.constantFrom('', 'controller.', 'ui.', 'controller.image.');
const noStdin = { cwd: '/', readStdin: async () => '' };

async function cli(args: string[]) {
  const io = createMemoryIo({});
  const code = await run(args, io);
  return { code, out: io.out, err: io.err };
}

describe('built-in names as user-supplied names', () => {
  test('as a values key (--set and a file), in either revision: an unknown key, never a key of the other revision', async () => {
    await fc.assert(
      fc.asyncProperty(name, parent, fc.constantFrom(...REVISION_IDS), async (key, at, revision) => {
        const path = `${at}${key}`;
        const flags = await loadUserLayers({ set: [`${path}=1`] }, noStdin);
        const file = parseValuesText(`${path.split('.').map((k, i) => `${'  '.repeat(i)}${k}:`).join('\n')} 1\n`, 'v.yaml');
        for (const layers of [flags.sources, [file.source!]]) {
          const problems = lintValues({ revision, layers }).problems.filter((p) => p.severity === 'error');
          expect(problems.map((p) => [p.rule, p.path])).toEqual([['values/unknown-key', path]]);
          expect(problems[0]!.hint ?? '').not.toMatch(/revision [AB]/);
        }
      }),
      { numRuns: 60 },
    );
  });

  test('as a key to describe: no description (describeKey, which docs and completion use)', () => {
    for (const key of BUILTINS) for (const rev of REVISION_IDS) {
      expect(describeKey(rev, key)).toBeUndefined();
      expect(describeKey(rev, `controller.${key}`)).toBeUndefined();
    }
  });

  test('as a key to explain: an unknown key, not a crash', async () => {
    for (const key of ['toString', 'constructor', '__proto__']) {
      for (const path of [key, `controller.${key}`]) {
        const r = await cli(['explain', path]);
        expect({ path, code: r.code }).toEqual({ path, code: 1 });
        expect(r.err).toContain(`unknown values key "${path}"`);
      }
    }
  });

  test('as a label of template --labels: added like any label', async () => {
    for (const key of ['constructor', 'toString', 'valueOf']) {
      const r = await cli(['template', '--labels', `${key}=x`, '--show-only', 'templates/controller-deployment.yaml']);
      expect({ key, code: r.code, err: r.err }).toEqual({ key, code: 0, err: '' });
      expect(r.out).toContain(`    ${key}: x\n`);
    }
  });

  test('as a custom-resource field: an unknown field of that object', async () => {
    for (const key of ['toString', 'constructor', '__proto__']) {
      const io = createMemoryIo({ stdin: `apiVersion: agentplat.dev/v1alpha2\nkind: Agent\nmetadata:\n  name: a\nspec:\n  type: BYO\n  ${key}: 1\n  byo:\n    deployment:\n      image: x\n` });
      expect(await run(['validate', '-'], io)).toBe(1);
      expect(io.out).toContain(`unknown field spec.${key}`);
    }
  });
});
