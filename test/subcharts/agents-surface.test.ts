// agents-surface: the keys every bundled agent chart of revision A honours beyond the spec's
// (runtime, env, imagePullSecrets, podSecurityContext, securityContext, compaction) take effect on
// exactly that agent's Agent, in the fields the agent charts put them. Facts: the docs/values.md section
// "Bundled agents" (taken from the reference measurements of the real chart).
import { describe, expect, it } from 'vitest';
import { lintText, obj, surfaceCases, where, type SurfaceCase } from './surface.ts';

const AGENT = 'Agent/cluster-agent';
const DECL = `${AGENT}:spec.declarative`;
const DEPLOY = `${DECL}.deployment`;
const a = (v: Record<string, unknown>) => ({ 'cluster-agent': v });
const decl = (docs: Parameters<typeof obj>[0]) => obj(docs, 'Agent', 'cluster-agent').spec.declarative;

const CASES: SurfaceCase[] = [
  { key: 'runtime', set: a({ runtime: 'python' }), changes: [`${DECL}.runtime`], check: (d) => expect(decl(d).runtime).toBe('python') },
  { key: 'runtime go (the empty default)', set: a({ runtime: 'go' }), changes: [] },
  { key: 'env', set: a({ env: [{ name: 'HTTPS_PROXY', value: 'http://proxy:3128' }] }), changes: [`${DEPLOY}.env`] },
  {
    key: 'imagePullSecrets',
    set: a({ imagePullSecrets: [{ name: 'agents-pull' }] }),
    changes: [`${DEPLOY}.imagePullSecrets`],
    check: (d) => expect(decl(d).deployment.imagePullSecrets).toEqual([{ name: 'agents-pull' }]),
  },
  {
    key: 'imagePullSecrets (replaces the top-level ones for this agent)',
    base: { imagePullSecrets: [{ name: 'everyone-pull' }] },
    set: a({ imagePullSecrets: ['agents-pull'] }),
    changes: [`${DEPLOY}.imagePullSecrets[0].name`],
    check: (d) => expect(decl(d).deployment.imagePullSecrets).toEqual([{ name: 'agents-pull' }]),
  },
  { key: 'podSecurityContext', set: a({ podSecurityContext: { runAsNonRoot: true, fsGroup: 2000 } }), changes: [`${DEPLOY}.podSecurityContext`] },
  { key: 'securityContext', set: a({ securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true } }), changes: [`${DEPLOY}.securityContext`] },
  {
    key: 'compaction',
    set: a({ compaction: { compactionInterval: 10, overlapSize: 3 } }),
    changes: [`${DECL}.context`],
    check: (d) => expect(decl(d).context).toEqual({ compaction: { compactionInterval: 10, overlapSize: 3 } }),
  },
];

describe('agents-surface: each key of a bundled agent chart changes exactly its Agent fields (revision A)', () => {
  surfaceCases(CASES, ['A']);
});

describe('agents-surface: values the Agent CRD would refuse are linted at file:line:column', () => {
  it('compaction is checked with the Agent CRD schema of context.compaction (bounds and unknown fields)', () => {
    const bad = lintText('A', 'cluster-agent:\n  compaction:\n    compactionInterval: 0\n    overlap: 2\n').filter((p) => p.severity === 'error');
    expect(where(bad)).toEqual(['values/schema values.yaml:3:5 error', 'values/unknown-key values.yaml:4:5 error']);
  });

  it('runtime takes go or python only; the agents keys do not exist in revision B', () => {
    expect(where(lintText('A', 'cluster-agent:\n  runtime: java\n').filter((p) => p.severity === 'error'))).toEqual(['values/schema values.yaml:2:3 error']);
    expect(lintText('B', 'cluster-agent:\n  runtime: go\n').filter((p) => p.severity === 'error').length).toBeGreaterThan(0);
  });
});
