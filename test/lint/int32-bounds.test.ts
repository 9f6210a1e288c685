// Every integer that lands in an int32 field of a Kubernetes object is bounded as the API server
// bounds it: values (--set and files, the chart's own keys and the Kubernetes types they pass
// through) and custom resources.
import { describe, expect, it } from 'vitest';
import { cli } from '../hardening/_cli.ts';

interface JsonReport {
  files: { problems: { rule: string; path: string; message: string }[] }[];
}
const problems = (out: string) => (JSON.parse(out) as JsonReport).files.flatMap((f) => f.problems);

describe('int32 fields: values', () => {
  for (const revision of ['A', 'B'] as const) {
    it(`revision ${revision}: --set controller.replicas=2147483648 is refused naming the bound; 2147483647 passes the schema`, async () => {
      const over = await cli(['lint', '-r', revision, '--format', 'json', '--set', 'controller.replicas=2147483648']);
      expect(over.code).toBe(1);
      expect(problems(over.out)).toContainEqual(expect.objectContaining({ rule: 'values/schema', path: 'controller.replicas', message: expect.stringMatching(/must be at most 2147483647 \(the range of a 32-bit integer/) }));
      const at = await cli(['lint', '-r', revision, '--format', 'json', '--set', 'controller.replicas=2147483647']);
      expect(problems(at.out).filter((p) => p.rule === 'values/schema')).toEqual([]);
    });

    it(`revision ${revision}: render refuses a replica count beyond int32 instead of printing a Deployment the API server rejects`, async () => {
      const r = await cli(['render', '-r', revision, '--set', 'ui.replicas=4294967296']);
      expect(r.code).toBe(1);
      expect(r.out).toBe('');
      expect(r.err).toMatch(/ui\.replicas.*2147483647/);
    });
  }

  it('an int32 field of a Kubernetes type inside the values (a probe\'s periodSeconds) is bounded; an int64 one (runAsUser) is not', async () => {
    const file = 'controller:\n  readinessProbe:\n    periodSeconds: 2147483648\n  podSecurityContext:\n    runAsUser: 2147483648\n';
    const r = await cli(['lint', '-r', 'B', '--format', 'json', '-f', '-'], file);
    const schema = problems(r.out).filter((p) => p.rule === 'values/schema');
    expect(schema.map((p) => p.path)).toContain('controller.readinessProbe.periodSeconds');
    expect(schema.map((p) => p.path)).not.toContain('controller.podSecurityContext.runAsUser');
  });
});

describe('int32 fields: custom resources', () => {
  const agent = (replicas: number) =>
    ['apiVersion: agentplat.dev/v1alpha2', 'kind: Agent', 'metadata: {name: a}', 'spec:', '  type: BYO', '  byo:', '    deployment:', '      image: ghcr.io/x/y:1', `      replicas: ${replicas}`, ''].join('\n');

  it('an Agent with replicas 2147483648 is refused at the field; 2147483647 and 0 are accepted; -1 is refused', async () => {
    const over = await cli(['validate', '--format', 'json', '-'], agent(2147483648));
    expect(over.code).toBe(1);
    expect(problems(over.out)).toContainEqual(expect.objectContaining({ rule: 'crd/schema', path: 'spec.byo.deployment.replicas', message: expect.stringMatching(/2147483647/) }));
    for (const ok of [2147483647, 0]) {
      const r = await cli(['validate', '--format', 'json', '-'], agent(ok));
      expect(problems(r.out).filter((p) => p.path === 'spec.byo.deployment.replicas'), String(ok)).toEqual([]);
    }
    const negative = await cli(['validate', '--format', 'json', '-'], agent(-1));
    expect(problems(negative.out)).toContainEqual(expect.objectContaining({ path: 'spec.byo.deployment.replicas' }));
  });

  it('the CRD states the bound as the API server reads it (format int32, maximum)', async () => {
    const r = await cli(['crds']);
    const replicas = /replicas:\n(?:\s+[a-z]\w*: .*\n)+/i.exec(r.out)?.[0] ?? '';
    expect(replicas).toMatch(/format: int32/);
    expect(replicas).toMatch(/maximum: 2147483647/);
  });
});
