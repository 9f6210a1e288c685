// A provider API key the user gives is either rendered into a Secret or reported as unused, with
// the reason (values/provider-api-key-unused). Only the default block renders its ModelConfig and
// a Secret, and only when the block names the Secret (apiKeySecretRef). Each case also renders, so
// the verdict is held to the Secret that is (or is not) in the manifests.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { dataSource } from '../../src/values/source.ts';
import { find, get, render } from '../render/_render.ts';
import { runInProcess } from '../cli/in-process.ts';

const RULE = 'values/provider-api-key-unused';
const found = (rev: Revision, values: Record<string, unknown>) => lintValues({ revision: rev, layers: [dataSource('values.yaml', values)] }).problems.filter((p) => p.rule === RULE);
const secretsOf = (rev: Revision, values: Record<string, unknown>) => render(rev, values).filter((d) => d.object.kind === 'Secret' && d.source.endsWith('modelconfig-secret.yaml')).map((d) => d.object.metadata.name);

describe('a provider API key is rendered or reported', () => {
  it.each(['A', 'B'] as const)('%s: an apiKey in a block that is not the default is a warning naming the default', (rev) => {
    const values = { providers: { default: 'providerA', providerB: { apiKey: 'sk-123' } } };
    expect(secretsOf(rev, values)).toEqual([]);
    const problems = found(rev, values);
    expect(problems.map((p) => [p.severity, p.path])).toEqual([['warning', 'providers.providerB.apiKey']]);
    expect(problems[0]!.message).toContain('providers.default is providerA');
    expect(problems[0]!.hint).toContain('providers.default: providerB');
    expect(JSON.stringify(problems)).not.toContain('sk-123');
  });

  it('an apiKey of the default block with apiKeySecretRef emptied is an error: no Secret, and the ModelConfig names a key of no Secret', () => {
    const values = { providers: { default: 'providerA', providerA: { apiKeySecretRef: '', apiKey: 'sk-1' } } };
    expect(secretsOf('B', values)).toEqual([]);
    const spec = get(render('B', values), 'ModelConfig', 'default-model-config').spec;
    expect(spec.apiKeySecret).toBeUndefined();
    expect(spec.apiKeySecretKey).toBe('PROVIDERA_API_KEY');
    const problems = found('B', values);
    expect(problems.map((p) => [p.severity, p.path])).toEqual([['error', 'providers.providerA.apiKey']]);
    expect(problems[0]!.message).toMatch(/apiKeySecretRef is empty.*names the key PROVIDERA_API_KEY of no Secret/);
  });

  it('the default block with its Secret named renders the key and says nothing; so do blocks without a key', () => {
    const values = { providers: { default: 'providerA', providerA: { apiKey: 'sk-1' } } };
    expect(secretsOf('B', values)).toEqual(['agentplat-providera']);
    expect(find(render('B', values), 'Secret', 'agentplat-providera')).toBeDefined();
    expect(found('B', values)).toEqual([]);
    expect(found('B', {})).toEqual([]);
    expect(found('B', { providers: { providerB: { apiKey: '' } } })).toEqual([]);
  });

  it('lint on the command line reports it at the --set that wrote the key', async () => {
    const r = await runInProcess(['lint', '--set', 'providers.default=providerA', '--set', 'providers.providerB.apiKey=sk-123']);
    expect(r.stdout).toMatch(/--set #2:1:1 {2}warning {2}providers\.providerB\.apiKey is never rendered/);
    expect(r.stdout).not.toContain('sk-123');
    expect((await runInProcess(['lint', '--strict', '--set', 'providers.default=providerA', '--set', 'providers.providerB.apiKey=sk-123'])).code).toBe(1);
  });
});
