// YAML merge keys in values files (`<<: *defaults`, with the anchor on a holder key that
// `ignoreKeys` lets through): helm's YAML reader applies them, so agentplat does too, instead of
// reporting an unknown key `<<`.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from './cli/in-process.ts';
import { tempDir } from './helpers/temp-dir.ts';

/** A folder whose .agentplat.yaml ignores the anchor holder keys (x-*), as docs/rules.md shows. */
function folder(): string {
  const cwd = tempDir('agentplat-merge-keys-');
  writeFileSync(join(cwd, '.agentplat.yaml'), "ignoreKeys: ['x-*']\n");
  return cwd;
}

const VALUES = 'x-common: &res\n  limits: {memory: 1Gi}\ncontroller:\n  resources:\n    <<: *res\n    requests: {cpu: 100m}\n';

describe('values files: YAML merge keys', () => {
  it('a merge key merges the anchored map into its map, as helm reads it, and lints clean with the holder key ignored', async () => {
    const cwd = folder();
    const lint = await runInProcess(['lint', '-f', '-'], { stdin: VALUES, cwd });
    expect(lint.stdout).not.toContain('<<');
    expect(lint.code).toBe(0);
    const computed = await runInProcess(['values', '--computed', '-f', '-', '-o', 'json'], { stdin: VALUES, cwd });
    expect(computed.code, computed.stderr).toBe(0);
    const resources = (JSON.parse(computed.stdout) as { controller: { resources: { limits: Record<string, unknown>; requests: Record<string, unknown> } } }).controller.resources;
    expect(resources.limits.memory).toBe('1Gi');
    expect(resources.requests.cpu).toBe('100m');
  });

  it('keys written beside the merge key win over the merged ones', async () => {
    const text = 'x-common: &res\n  limits: {memory: 1Gi}\ncontroller:\n  resources:\n    <<: *res\n    limits: {memory: 2Gi}\n';
    const computed = await runInProcess(['values', '--computed', '-f', '-', '-o', 'json'], { stdin: text, cwd: folder() });
    expect((JSON.parse(computed.stdout) as { controller: { resources: { limits: { memory: string } } } }).controller.resources.limits.memory).toBe('2Gi');
  });
});
