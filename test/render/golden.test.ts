// Golden outputs: fixtures/render/<case>/{values.yaml,args.json} rendered through the CLI
// (lint included) must equal expected.yaml. Only the chart's own objects are kept (sources under
// agentplat/templates/); CRDs and sub-charts have their own goldens.
// Regenerate: UPDATE_GOLDEN=1 npx vitest run test/render/golden.test.ts — then read the diff.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.ts';
import { createMemoryIo } from '../../src/cli/io.ts';

const ROOT = join(import.meta.dirname, '..', '..', 'fixtures', 'render');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

interface Args {
  revision: 'A' | 'B';
  namespace?: string;
  releaseName?: string;
  apiVersions?: string[];
  kubeVersion?: string;
}

export function goldenArgv(dir: string): string[] {
  const args = JSON.parse(readFileSync(join(dir, 'args.json'), 'utf8')) as Args;
  return [
    'render',
    '--revision', args.revision,
    '-f', join(dir, 'values.yaml'),
    '--skip-crds',
    ...(args.namespace ? ['-n', args.namespace] : []),
    ...(args.releaseName ? ['--release-name', args.releaseName] : []),
    ...(args.apiVersions ?? []).flatMap((a) => ['--api-versions', a]),
    ...(args.kubeVersion ? ['--kube-version', args.kubeVersion] : []),
  ];
}

/** Keeps the documents whose `# Source:` is one of the chart's own templates. */
export function chartOwnDocs(yaml: string): string {
  return yaml
    .split(/^(?=---\n)/m)
    .filter((doc) => doc.startsWith('---\n# Source: agentplat/templates/'))
    .join('');
}

export const GOLDEN_CASES = readdirSync(ROOT).filter((d) => existsSync(join(ROOT, d, 'args.json'))).sort();

describe('golden renders (fixtures/render)', () => {
  for (const name of GOLDEN_CASES) {
    it(name, async () => {
      const dir = join(ROOT, name);
      const io = createMemoryIo();
      const code = await run(goldenArgv(dir), io);
      expect(code, io.err).toBe(0);
      const actual = chartOwnDocs(io.out);
      const file = join(dir, 'expected.yaml');
      if (UPDATE || !existsSync(file)) writeFileSync(file, actual);
      expect(actual).toBe(readFileSync(file, 'utf8'));
    });
  }
});
