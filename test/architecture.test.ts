// The stage graph (docs/architecture.md, .dependency-cruiser.cjs): every folder of src/ is a
// stage on a row; a stage imports only the rows below it, never a sibling, and no file takes part
// in an import cycle. `npm run lint` (part of `npm test`) runs dependency-cruiser on the real tree;
// here the same rules run on a small tree that breaks them, so a rule that stopped matching fails.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type IViolation } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[]; options: Record<string, unknown> };

async function violations(baseDir: string): Promise<string[]> {
  const result = await cruise(
    ['src'],
    { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true, baseDir } as never,
    {},
    { tsConfig: extractTSConfig(join(ROOT, 'tsconfig.json')) },
  );
  const output = result.output as { summary: { violations: IViolation[] } };
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`).sort();
}

const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe('stage graph of src/', () => {
  it('every folder of src/ is a stage with a row in the graph', () => {
    const stages = new Set(config.forbidden.map((r) => /^(.+)-imports-only-downward$/.exec(r.name)?.[1]).filter(Boolean));
    const folders = readdirSync(join(ROOT, 'src')).filter((f) => statSync(join(ROOT, 'src', f)).isDirectory());
    expect(folders.filter((f) => !stages.has(f))).toEqual([]);
  });

  it('the rules catch an upward import, an import between siblings, a cycle, a leaf utility importing a stage, a command\'s run file importing another, and an adapter running a stage itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentplat-stages-'));
    scratch.push(dir);
    const files: Record<string, string> = {
      'src/problems/problem.ts': "import { rule } from '../lint/rule.ts';\nexport const problem = rule;\n",
      'src/lint/rule.ts': "import { problem } from '../problems/problem.ts';\nimport { component } from '../render/component.ts';\nexport const rule = [problem, component];\n",
      'src/render/component.ts': 'export const component = 1;\n',
      'src/fs-path.ts': "import { problem } from './problems/problem.ts';\nexport const path = problem;\n",
      'src/cli/commands/plan-run.ts': "import { diff } from './diff-run.ts';\nexport const plan = diff;\n",
      'src/cli/commands/diff-run.ts': 'export const diff = 1;\n',
      // Adapters: a run file and the API reaching a stage past the operations; a type-only import
      // and an exception from the one file it is granted to are not violations.
      'src/cli/commands/render-run.ts': "import { renderChart } from '../../render/render.ts';\nimport type { LayerOptions } from '../../values/load.ts';\nexport const run = (l: LayerOptions) => [renderChart, l];\n",
      'src/render/render.ts': 'export const renderChart = 1;\n',
      'src/values/load.ts': 'export interface LayerOptions { values: string[] }\n',
      'src/api.ts': "import { ruleCatalog } from './lint/config.ts';\nexport const api = ruleCatalog;\n",
      'src/lint/config.ts': 'export const ruleCatalog = 1;\n',
      'src/cli/lint-settings.ts': "import { ruleCatalog } from '../lint/config.ts';\nexport const settings = ruleCatalog;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const found = await violations(dir);
    expect(found.some((v) => v.startsWith('problems-imports-only-downward: src/problems/problem.ts -> src/lint/rule.ts'))).toBe(true);
    expect(found.some((v) => v.startsWith('lint-imports-only-downward: src/lint/rule.ts -> src/render/component.ts'))).toBe(true);
    expect(found.some((v) => v.startsWith('no-circular:'))).toBe(true);
    expect(found.some((v) => v.startsWith('leaf-utilities-import-nothing: src/fs-path.ts -> src/problems/problem.ts'))).toBe(true);
    expect(found.some((v) => v.startsWith('run-files-import-no-run-file: src/cli/commands/plan-run.ts -> src/cli/commands/diff-run.ts'))).toBe(true);
    const adapters = found.filter((v) => v.startsWith('adapters-run-stages-through-operations:'));
    expect(adapters).toEqual(['adapters-run-stages-through-operations: src/api.ts -> src/lint/config.ts', 'adapters-run-stages-through-operations: src/cli/commands/render-run.ts -> src/render/render.ts']);
  });
});
