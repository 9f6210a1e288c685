// Inputs the hardening suites found that once failed, each pinned by name.
import { describe, expect, it } from 'vitest';
import { registerChartSchemas } from '../helpers/chart-schemas.ts';
import { k8sSchemaIssues } from '../helpers/k8s-schema.ts';
import { render } from '../render/_render.ts';

registerChartSchemas();

describe('regressions found by the hardening suites', () => {
  it('a bundled agent resource quantity given as a fractional number renders as text the Agent CRD accepts (values-property A, seed 20250708)', () => {
    const docs = render('A', { 'rollouts-agent': { enabled: true, resources: { limits: { memory: 5e-324, cpu: 0.5 }, requests: { cpu: 1 } } } }, { skipCrds: true });
    const agent = docs.find((d) => d.object.kind === 'Agent' && d.object.metadata.name === 'rollouts-agent')!.object as any;
    expect(agent.spec.declarative.deployment.resources).toEqual({ limits: { memory: '5e-324', cpu: '0.5' }, requests: { cpu: 1, memory: '128Mi' } });
    expect(k8sSchemaIssues(agent)).toEqual([]);
  });
});
