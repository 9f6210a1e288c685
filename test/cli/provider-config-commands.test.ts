// The ModelConfig check of provider config/tls lives in validate's code, which a run loads only
// when its values set a provider block's config or tls (src/lint/crd-check.ts). Each command that
// lints values is run here as its own process (the bundle, nothing preloaded), so a command that
// forgot to load the check would crash here instead of checking.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from './binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { objectsOf } from '../helpers/objects.ts';

beforeAll(() => ensureBuilt());

const BAD = 'providers:\n  providerB:\n    config:\n      maxTokens: 0\n';
const GOOD = 'providers:\n  providerB:\n    config:\n      baseUrl: https://gateway.example/v1\n';
const MESSAGE = 'ModelConfig default-model-config: spec.providerB.maxTokens must be at least 1, found 0';

describe('every command that lints values runs the ModelConfig check of provider config', () => {
  const dir = tempDir('agentplat-provider-config-');
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('lint -f / --set (layers only)', () => {
    const r = runBin(['lint', '--set', 'providers.providerB.config.maxTokens=0']);
    expect(r.stdout).toContain(MESSAGE);
    expect(r.code).toBe(1);
  });

  it('lint FILE (each file on its own)', () => {
    const r = runBin(['lint', file('bad.yaml', BAD)]);
    expect(r.stdout).toContain(MESSAGE);
    expect(r.code).toBe(1);
  });

  it('render: refuses the bad value, renders the good one into spec.providerB', () => {
    const bad = runBin(['render', '-f', file('bad.yaml', BAD)]);
    expect(bad.stderr).toContain(MESSAGE);
    expect(bad.code).toBe(1);
    const good = runBin(['render', '-f', file('good.yaml', GOOD), '--show-only', 'templates/modelconfig.yaml']);
    expect(good.stderr).toBe('');
    expect((objectsOf(good.stdout)[0] as any).spec.providerB).toEqual({ baseUrl: 'https://gateway.example/v1' });
  });

  it('migrate lints the migrated file with the check', () => {
    const r = runBin(['migrate', '-f', file('a.yaml', BAD)]);
    expect(r.stderr).toContain(MESSAGE);
  });

  it('diff renders both sides with the check', () => {
    const r = runBin(['diff', '-f', file('good.yaml', GOOD), '--to-values', file('bad.yaml', BAD)]);
    expect(r.stderr).toContain(MESSAGE);
  });

  it('explain renders a provider config key with the check', () => {
    const r = runBin(['explain', 'providers.providerB.config.baseUrl']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/ModelConfig default\/default-model-config: spec\.providerB/);
  });
});
