// global-watch-namespaces-scope [B]: "A non-empty global.watchNamespaces scopes the whole install:
// namespaced roles replace the cluster-wide roles". The sub-charts that hold cluster permissions
// (mcpop's manager role, the tools server's role) follow the install's role scope too.
import { describe, expect, it } from 'vitest';
import { expectValidK8sObjects } from '../helpers/k8s-schema.ts';
import { id, render } from './helpers.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import type { Values } from '../../src/values/merge.ts';

const rbacIds = (rev: Revision, values: Values) =>
  render(rev, values, { namespace: 'platform' })
    .filter((d) => /Role/.test(d.object.kind) && /(mcpop|tools)/.test(d.source))
    .map(id)
    .sort();

const mcpopArgs = (rev: Revision, values: Values): string[] =>
  (render(rev, values, { namespace: 'platform' }).find((d) => d.object.kind === 'Deployment' && d.object.metadata.name === 'agentplat-mcpop-controller-manager')!.object as any).spec.template.spec.containers[0].args;

const CLUSTER_WIDE = [
  'ClusterRole//agentplat-mcpop-manager-role',
  'ClusterRole//agentplat-mcpop-metrics-auth-role',
  'ClusterRole//agentplat-mcpop-metrics-reader',
  'ClusterRole//agentplat-tools-cluster-admin-role',
  'ClusterRoleBinding//agentplat-mcpop-manager-rolebinding',
  'ClusterRoleBinding//agentplat-mcpop-metrics-auth-rolebinding',
  'ClusterRoleBinding//agentplat-tools-cluster-admin-rolebinding',
  'Role/platform/agentplat-mcpop-leader-election-role',
  'RoleBinding/platform/agentplat-mcpop-leader-election-rolebinding',
];

describe('global-watch-namespaces-scope [B]: the sub-charts follow the install scope', () => {
  it('non-empty global.watchNamespaces: mcpop manager and tools roles become one Role + RoleBinding per namespace; mcpop watches only those', () => {
    const values = { global: { watchNamespaces: ['team-b', 'platform', 'team-b'] } };
    expect(rbacIds('B', values)).toEqual([
      'ClusterRole//agentplat-mcpop-metrics-auth-role',
      'ClusterRole//agentplat-mcpop-metrics-reader',
      'ClusterRoleBinding//agentplat-mcpop-metrics-auth-rolebinding',
      'Role/platform/agentplat-mcpop-leader-election-role',
      'Role/platform/agentplat-mcpop-manager-role',
      'Role/platform/agentplat-tools-cluster-admin-role',
      'Role/team-b/agentplat-mcpop-manager-role',
      'Role/team-b/agentplat-tools-cluster-admin-role',
      'RoleBinding/platform/agentplat-mcpop-leader-election-rolebinding',
      'RoleBinding/platform/agentplat-mcpop-manager-rolebinding',
      'RoleBinding/platform/agentplat-tools-cluster-admin-rolebinding',
      'RoleBinding/team-b/agentplat-mcpop-manager-rolebinding',
      'RoleBinding/team-b/agentplat-tools-cluster-admin-rolebinding',
    ]);
    expect(mcpopArgs('B', values)).toContain('--watch-namespaces=platform,team-b');
    const docs = render('B', values, { namespace: 'platform' });
    const toolsRole = docs.find((d) => d.object.kind === 'Role' && d.object.metadata.name === 'agentplat-tools-cluster-admin-role')!.object as any;
    // a Role cannot hold non-resource URLs
    expect(toolsRole.rules).toEqual([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
    const binding = docs.find((d) => d.object.kind === 'RoleBinding' && d.object.metadata.namespace === 'team-b' && d.object.metadata.name === 'agentplat-tools-cluster-admin-rolebinding')!.object as any;
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'agentplat-tools-cluster-admin-role' });
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'agentplat-tools', namespace: 'platform' }]);
    expectValidK8sObjects(docs.filter((d) => /Role/.test(d.object.kind)).map((d) => d.object));
  });

  it('rbac.namespaces present overrides global.watchNamespaces; an explicit empty list restores cluster-wide roles', () => {
    expect(rbacIds('B', { global: { watchNamespaces: ['platform'] }, rbac: { namespaces: [] } })).toEqual(CLUSTER_WIDE);
    expect(rbacIds('B', { global: { watchNamespaces: ['platform'] }, rbac: { namespaces: ['platform', 'team-c'] } })).toContain('Role/team-c/agentplat-mcpop-manager-role');
  });

  it('defaults (B) and revision A (rbac.namespaces is the main chart key only) keep the sub-charts cluster-wide', () => {
    expect(rbacIds('B', {})).toEqual(CLUSTER_WIDE);
    expect(rbacIds('A', { rbac: { namespaces: ['platform', 'team-a'] } })).toEqual(CLUSTER_WIDE);
    expect(mcpopArgs('B', {}).some((a) => a.startsWith('--watch-namespaces'))).toBe(false);
  });
});
