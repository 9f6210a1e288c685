// Lint must evaluate the default `authproxy.extraEnv` (its sign-in checksum include) without
// loading the renderer: the include is registered by src/model/sign-in-template.ts, which lint
// and render share. That lint reaches no module of render/ is the stage graph's rule
// (.dependency-cruiser.cjs: lint and render are siblings, and lint imports only the rows below).
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { parseValuesText } from '../../src/values/source.ts';

describe('2.9 authproxy.extraEnv sign-in template checksum at lint time', () => {
  it('lint of the defaults with authproxy on evaluates the checksum include without a templated-values problem', () => {
    for (const revision of ['A', 'B'] as const) {
      const { source } = parseValuesText('authproxy:\n  enabled: true\n  config:\n    existingSecret: oidc\n', 'authproxy.yaml');
      const { problems } = lintValues({ revision, layers: [source!], releaseNamespace: 'agentplat' });
      expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
      expect(problems.filter((p) => p.rule === 'values/templated-values')).toEqual([]);
    }
  });
});
