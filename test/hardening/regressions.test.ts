// Inputs the hardening suites found that once failed, each pinned by name.
import { describe, expect, it } from 'vitest';
import { registerChartSchemas } from '../helpers/chart-schemas.ts';
import { k8sSchemaIssues } from '../helpers/k8s-schema.ts';
import { render } from '../render/_render.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { breathe } from '../helpers/breathe.ts';
import { cli, expectContract } from './_cli.ts';

registerChartSchemas();

describe('regressions found by the hardening suites', () => {
  it('a bundled agent resource quantity given as a fractional number renders as text the Agent CRD accepts (values-property A, seed 20250708)', () => {
    const docs = render('A', { 'rollouts-agent': { enabled: true, resources: { limits: { memory: 5e-324, cpu: 0.5 }, requests: { cpu: 1 } } } }, { skipCrds: true });
    const agent = docs.find((d) => d.object.kind === 'Agent' && d.object.metadata.name === 'rollouts-agent')!.object as any;
    expect(agent.spec.declarative.deployment.resources).toEqual({ limits: { memory: '5e-324', cpu: '0.5' }, requests: { cpu: 1, memory: '128Mi' } });
    expect(k8sSchemaIssues(agent)).toEqual([]);
  });

  it.each([
    ['an alias inside its own anchor (fuzz-values-files lint, seed 20250808)', 'a: &a\n  b: *a\ncontroller:\n  toolRefreshInterval: 30s\n', 2, 6],
    ['a flow list holding itself', 'x: 1\na: &a [1, *a]\n', 2, 11],
    ['an alias two levels inside its anchor', 'a: &a\n  b: &b\n    c: *a\n', 3, 8],
  ])('a cyclic alias is a values/yaml-aliases problem with its position, not a stack overflow: %s', async (_name, text, line, column) => {
    expect(parseValuesText(text, 'v.yaml').problems).toEqual([expect.objectContaining({ rule: 'values/yaml-aliases', file: 'v.yaml', line, column })]);
    for (const cmd of ['lint', 'render']) {
      const r = await cli([cmd, '-r', 'A', '-f', '-'], text);
      expectContract(r, `${cmd} ${text}`);
      expect(r.code).toBe(1);
    }
  });

  it('an extraObjects string whose YAML has an alias without its anchor is a problem at that entry, not an internal error (fuzz-values-files lint, seed 20250808)', async () => {
    const text = 'extraObjects:\n  - |\n    apiVersion: *a\n    kind: Secret\n    metadata:\n      name: x\n';
    for (const cmd of ['lint', 'render']) {
      const r = await cli([cmd, '-r', 'A', '-f', '-'], text);
      expectContract(r, `${cmd} ${text}`);
      expect(r.code).toBe(1);
      expect(cmd === 'lint' ? r.out : r.err).toContain('extraObjects[0] is not valid YAML after templating');
    }
  });

  it('a collection used as a key reaches no Node warning on stderr, for lint, render, validate and migrate (fuzz-values-files render, seed 20250809)', async () => {
    const warnings: string[] = [];
    const listener = (w: Error) => void warnings.push(w.message);
    process.on('warning', listener);
    try {
      const text = '? [a]\n: 1\nextraObjects:\n- |\n  ? [b]\n  : 1\n';
      for (const argv of [['lint', '-f', '-'], ['render', '-f', '-'], ['validate', '-'], ['migrate', '-f', '-']]) {
        const r = await cli(argv, text);
        expectContract(r, argv.join(' '));
      }
      expect((await cli(['lint', '-f', '-'], '? [a]\n: 1\n')).out).toContain('unknown key');
      await breathe();
    } finally {
      process.off('warning', listener);
    }
    expect(warnings).toEqual([]);
  });

  it('validate: a cyclic alias inside a preserve-unknown-fields map is a crd/yaml-syntax problem, not a valid resource (found while fuzzing validate)', async () => {
    const text = 'apiVersion: agentplat.dev/v1alpha2\nkind: ModelConfig\nmetadata: {name: a}\nspec:\n  model: x\n  provider: ProviderH\n  providerH:\n    region: r\n    additionalModelRequestFields: &f\n      a: *f\n';
    const r = await cli(['validate', '--format', 'json', '-'], text);
    expectContract(r, text);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).files[0].problems).toEqual([expect.objectContaining({ rule: 'crd/yaml-syntax', line: 10, column: 10 })]);
  });
});
