// The controller's RBAC: getter and writer roles (cluster-scoped, or one Role + RoleBinding per
// namespace of the RBAC scope), leader election when replicas > 1, and the metrics roles.

import type { Component, RenderContext } from '../context.ts';
import type { RenderedDoc } from '../engine.ts';
import { chartLabels, controllerServiceAccountName, nameOf } from '../chart.ts';
import { metricsSettings, roleNamespaces } from '../derive.ts';
import { num, str, firstOf } from '../values-access.ts';
import { chartDocs, meta } from './common.ts';

interface Rule {
  apiGroups: string[] | null;
  resources: string[] | null;
  nonResourceURLs: string[] | null;
  verbs: string[];
}

const rule = (apiGroups: string[], resources: string[], verbs: string[]): Rule => ({ apiGroups, resources, nonResourceURLs: null, verbs });
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete'];
const GROUP = 'agentplat.dev';
const SUBSTRATE = 'ate.dev';

/** The six kinds of the Resource API, plus the MCP operator's MCPServer whose tools the controller discovers. */
const PLATFORM_RESOURCES = ['agents', 'sandboxagents', 'agentharnesses', 'modelconfigs', 'modelproviderconfigs', 'remotemcpservers', 'mcpservers'];

function getterRules(): Rule[] {
  const p = PLATFORM_RESOURCES;
  return [
    rule([GROUP], p, READ),
    rule([GROUP], p.map((r) => `${r}/finalizers`), ['update']),
    rule([GROUP], p.map((r) => `${r}/status`), ['get', 'patch', 'update']),
    rule([''], ['*'], READ),
    rule([SUBSTRATE], ['workerpools', 'actortemplates'], READ),
    rule([SUBSTRATE], ['actortemplates/status'], ['get']),
    rule(['apps'], ['*'], READ),
    rule(['batch'], ['*'], READ),
    rule(['rbac.authorization.k8s.io'], ['*'], READ),
    rule(['gateway.networking.k8s.io'], ['*'], READ),
    rule(['agents.x-k8s.io'], ['sandboxes'], READ),
  ];
}

function writerRules(): Rule[] {
  const p = PLATFORM_RESOURCES;
  return [
    rule([GROUP], p, WRITE),
    rule([GROUP], p.map((r) => `${r}/finalizers`), ['update']),
    rule([''], ['*'], WRITE),
    rule(['apps'], ['*'], WRITE),
    rule(['batch'], ['*'], WRITE),
    rule(['gateway.networking.k8s.io'], ['*'], WRITE),
    rule(['agents.x-k8s.io'], ['sandboxes'], WRITE),
    rule([SUBSTRATE], ['actortemplates'], WRITE),
  ];
}

export interface Subject {
  name: string;
  namespace: string;
}

function role(ctx: RenderContext, file: string, kind: 'ClusterRole' | 'Role', name: string, rules: Rule[], labels: Record<string, string>, namespace: string | null): RenderedDoc[] {
  return chartDocs(file, 'rbac/role.yaml.hbs', { kind, meta: meta(ctx, name, labels, {}, namespace), rules });
}

function binding(ctx: RenderContext, file: string, kind: 'ClusterRoleBinding' | 'RoleBinding', name: string, roleKind: string, roleName: string, subjects: Subject[], labels: Record<string, string>, namespace: string | null): RenderedDoc[] {
  return chartDocs(file, 'rbac/binding.yaml.hbs', { kind, meta: meta(ctx, name, labels, {}, namespace), roleKind, roleName, subjects });
}

export const rbacComponent: Component = {
  id: 'rbac',
  render(ctx) {
    const docs: RenderedDoc[] = [];
    const common = chartLabels(ctx);
    const controllerLabels = chartLabels(ctx, 'controller');
    const sa: Subject = { name: controllerServiceAccountName(ctx), namespace: ctx.namespace };
    const namespaces = [...roleNamespaces(ctx)].sort();
    for (const [base, rules] of [
      ['getter', getterRules()],
      ['writer', writerRules()],
    ] as const) {
      const roleName = nameOf(ctx, `${base}-role`);
      const bindingName = nameOf(ctx, `${base}-rolebinding`);
      if (namespaces.length === 0) {
        docs.push(...role(ctx, `rbac/${base}-role.yaml`, 'ClusterRole', roleName, rules, common, null));
        docs.push(...binding(ctx, `rbac/${base}-rolebinding.yaml`, 'ClusterRoleBinding', bindingName, 'ClusterRole', roleName, [sa], common, null));
      } else {
        for (const ns of namespaces) {
          docs.push(...role(ctx, `rbac/${base}-role.yaml`, 'Role', roleName, rules, common, ns));
          docs.push(...binding(ctx, `rbac/${base}-rolebinding.yaml`, 'RoleBinding', bindingName, 'Role', roleName, [sa], common, ns));
        }
      }
    }

    if (num(ctx.values, 'controller.replicas', 1) > 1) {
      const name = nameOf(ctx, 'leader-election-role');
      docs.push(
        ...role(ctx, 'rbac/leader-election-role.yaml', 'Role', name, [rule(['coordination.k8s.io'], ['leases'], ['get', 'list', 'watch', 'create', 'update', 'patch']), rule([''], ['events'], ['create', 'patch'])], controllerLabels, ctx.namespace),
        ...binding(ctx, 'rbac/leader-election-rolebinding.yaml', 'RoleBinding', nameOf(ctx, 'leader-election-rolebinding'), 'Role', name, [sa], controllerLabels, ctx.namespace),
      );
    }

    const metrics = metricsSettings(ctx);
    if (metrics.enabled) {
      const reader = nameOf(ctx, 'metrics-reader');
      docs.push(...chartDocs('rbac/metrics-reader-clusterrole.yaml', 'rbac/role.yaml.hbs', {
        kind: 'ClusterRole',
        meta: meta(ctx, reader, controllerLabels, {}, null),
        rules: [{ apiGroups: null, resources: null, nonResourceURLs: ['/metrics'], verbs: ['get'] }],
      }));
      if (metrics.secure) {
        const auth = nameOf(ctx, 'metrics-auth-role');
        docs.push(
          ...role(ctx, 'rbac/metrics-auth-clusterrole.yaml', 'ClusterRole', auth, [rule(['authentication.k8s.io'], ['tokenreviews'], ['create']), rule(['authorization.k8s.io'], ['subjectaccessreviews'], ['create'])], controllerLabels, null),
          ...binding(ctx, 'rbac/metrics-auth-clusterrolebinding.yaml', 'ClusterRoleBinding', nameOf(ctx, 'metrics-auth-rolebinding'), 'ClusterRole', auth, [sa], controllerLabels, null),
        );
      }
      // service-monitor-scraper-binding-b: bind the reader to the scraper's account when named.
      const scraper = ctx.revision === 'B' ? str(ctx.values, 'controller.metrics.serviceMonitor.scraperServiceAccount.name') : '';
      if (scraper) {
        const scraperNs = firstOf(str(ctx.values, 'controller.metrics.serviceMonitor.scraperServiceAccount.namespace'), str(ctx.values, 'controller.metrics.serviceMonitor.namespace'), ctx.release.namespace);
        docs.push(...binding(ctx, 'rbac/metrics-reader-clusterrolebinding.yaml', 'ClusterRoleBinding', reader, 'ClusterRole', reader, [{ name: scraper, namespace: scraperNs }], controllerLabels, null));
      }
    }
    return docs;
  },
};
