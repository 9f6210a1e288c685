// The namespace scope of the install as the values document defines it per revision: where the
// controller runs (namespaceOverride wins over the release namespace) and how strictly a watched
// namespace without a role is treated ([B] scope rule; in A controller.watchNamespaces wins).
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';

function lint(revision: Revision, yaml: string, releaseNamespace?: string) {
  const src = parseValuesText(yaml, 'v.yaml').source!;
  return lintValues({ revision, layers: [src], ...(releaseNamespace ? { releaseNamespace } : {}) }).problems;
}

describe('values/rbac-release-namespace: roles must cover the namespace the controller runs in', () => {
  for (const revision of ['A', 'B'] as const) {
    it(`[${revision}] namespaceOverride moves the controller: roles in the override and another namespace render from any release namespace`, () => {
      const problems = lint(revision, 'namespaceOverride: my-ns\nrbac:\n  namespaces: [my-ns, other-ns]\n', 'default');
      expect(problems.filter((p) => p.rule === 'values/rbac-release-namespace')).toEqual([]);
    });
    it(`[${revision}] roles that leave out namespaceOverride are an error naming it, even without a release namespace`, () => {
      const hits = lint(revision, 'namespaceOverride: my-ns\nrbac:\n  namespaces: [other-ns]\n').filter((p) => p.rule === 'values/rbac-release-namespace');
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ severity: 'error', path: 'rbac.namespaces', line: 3, column: 3 });
      expect(hits[0]!.message).toMatch(/namespaceOverride "my-ns"/);
    });
  }
  it('without namespaceOverride the release namespace is where the controller runs', () => {
    const hits = lint('A', 'rbac:\n  namespaces: [other-ns]\n', 'prod').filter((p) => p.rule === 'values/rbac-release-namespace');
    expect(hits.map((h) => h.message)).toEqual([expect.stringMatching(/the release namespace "prod"/)]);
  });
});

describe('values/watch-scope: the scope rule is revision B\'s', () => {
  const yaml = 'rbac:\n  namespaces: [agentplat]\ncontroller:\n  watchNamespaces: [agentplat, team-b]\n';
  it('[A] controller.watchNamespaces wins over rbac.namespaces: a watched namespace without a role is a warning', () => {
    const hits = lint('A', yaml, 'agentplat').filter((p) => p.rule === 'values/watch-scope');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ severity: 'warning', path: 'controller.watchNamespaces[1]', line: 4, column: 32 });
    expect(hits[0]!.message).toMatch(/Forbidden/);
  });
  it('[B] a watched namespace without a role is an error', () => {
    const hits = lint('B', yaml, 'agentplat').filter((p) => p.rule === 'values/watch-scope');
    expect(hits.map((h) => h.severity)).toEqual(['error']);
  });
});
