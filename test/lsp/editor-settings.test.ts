// `editor:` of .agentplat.yaml, the release `agentplat lsp` lints an open values file in: read as
// the other settings are, each mistake a usage error naming file:line:col and the fix.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/lint/config.ts';

const error = (text: string) => {
  try {
    parseConfig(text, '.agentplat.yaml');
  } catch (err) {
    const e = err as Error & { hint?: string };
    return `${e.message}${e.hint ? ` | ${e.hint}` : ''}`;
  }
  return 'no error';
};

describe('editor settings of .agentplat.yaml', () => {
  it('the layers, names and versions are read', () => {
    const config = parseConfig('editor:\n  values: [base.yaml, prod.yaml]\n  namespace: agents\n  releaseName: ap\n  apiVersions: [monitoring.coreos.com/v1]\n  kubeVersion: "1.31"\n', '.agentplat.yaml');
    expect(config.editor).toEqual({ values: ['base.yaml', 'prod.yaml'], namespace: 'agents', releaseName: 'ap', apiVersions: ['monitoring.coreos.com/v1'], kubeVersion: '1.31' });
  });

  it('each mistake names its place and the fix', () => {
    expect(error('editor: true\n')).toBe('.agentplat.yaml:1:9: `editor` must be a map of settings | e.g. `editor: {values: [values.yaml, prod.yaml], namespace: agents}`');
    expect(error('editor:\n  values: base.yaml\n')).toMatch(/^\.agentplat\.yaml:2:11: `editor\.values` must be a list of strings/);
    expect(error('editor:\n  values: [base.yaml, 3]\n')).toBe('.agentplat.yaml:2:23: each item of `editor.values` must be a non-empty string');
    expect(error('editor:\n  namespace: ""\n')).toBe('.agentplat.yaml:2:14: `editor.namespace` must be a non-empty string');
    expect(error('editor:\n  kubeversion: "1.31"\n')).toBe('.agentplat.yaml:2:3: unknown setting `editor.kubeversion` | did you mean `kubeVersion`? (the editor settings are values, namespace, releaseName, apiVersions, kubeVersion)');
  });
});
