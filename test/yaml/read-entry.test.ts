// Reading YAML has one entry: src/yaml/read.ts decides, for every text, whether a fast reader or
// the yaml library reads it (docs/decisions.md, "Reading and writing YAML"). The rule in
// .dependency-cruiser.cjs that keeps it so (`npm run lint` runs it on the real tree) runs here on a
// small tree where a values module calls a fast reader itself, so a rule that stopped matching fails.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type IViolation } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[]; options: Record<string, unknown> };

const scratch = mkdtempSync(join(tmpdir(), 'agentplat-read-entry-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('one way to read YAML', () => {
  it('a module outside src/yaml/ that calls a fast reader itself, instead of src/yaml/read.ts, is refused by the lint', async () => {
    const files: Record<string, string> = {
      'src/yaml/plain-yaml.ts': 'export const plainYamlDocuments = 1;\n',
      'src/yaml/template-yaml.ts': 'export const readTemplateLines = 1;\n',
      'src/yaml/read.ts': "import { plainYamlDocuments } from './plain-yaml.ts';\nimport { readTemplateLines } from './template-yaml.ts';\nexport const readYaml = [plainYamlDocuments, readTemplateLines];\n",
      'src/values/source.ts': "import { readYaml } from '../yaml/read.ts';\nimport { plainYamlDocuments } from '../yaml/plain-yaml.ts';\nexport const source = [readYaml, plainYamlDocuments];\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(scratch, path, '..'), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    const result = await cruise(
      ['src'],
      { ...config.options, ruleSet: { forbidden: config.forbidden }, validate: true, baseDir: scratch } as never,
      {},
      { tsConfig: extractTSConfig(join(ROOT, 'tsconfig.json')) },
    );
    const found = (result.output as { summary: { violations: IViolation[] } }).summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    expect(found).toEqual(['yaml-read-through-one-module: src/values/source.ts -> src/yaml/plain-yaml.ts']);
  });
});
