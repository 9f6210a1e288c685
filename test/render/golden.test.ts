// Golden outputs: fixtures/render/<case>/{values.yaml,args.json} rendered through the CLI
// (lint included) must equal expected.yaml. Only the chart's own objects are kept (sources under
// agentplat/templates/); CRDs and sub-charts have their own goldens.
// Regenerate: UPDATE_GOLDEN=1 npx vitest run test/render/golden.test.ts — then read the diff.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.ts';
import { expectGolden } from '../helpers/golden.ts';
import { chartOwnDocs, GOLDEN_CASES, goldenArgv, ROOT } from './_golden.ts';
import { runInProcess } from '../cli/in-process.ts';

describe('golden renders (fixtures/render)', () => {
  for (const name of GOLDEN_CASES) {
    it(name, async () => {
      const dir = join(ROOT, name);
      const io = await runInProcess(goldenArgv(dir));
      const code = io.code;
      expect(code, io.stderr).toBe(0);
      const actual = chartOwnDocs(io.stdout);
      expectGolden(join(dir, 'expected.yaml'), actual);
    });
  }
});
