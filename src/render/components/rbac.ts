// The controller's RBAC: getter and writer roles (cluster-scoped, or one Role + RoleBinding per
// namespace of the RBAC scope), leader election when replicas > 1, and the metrics roles.

import type { Component } from '../../model/context.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import { chartLabels, controllerServiceAccountName, nameOf } from '../chart.ts';
import { metricsSettings } from '../../model/derive.ts';
import { num, str, firstOf } from '../../model/values-access.ts';
import { bindingDocs, nonResourceRule, roleDocs, rolePairDocs, rule, type Rule, type Subject } from './rbac-docs.ts';

export type { Subject };

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

export const rbacComponent: Component = {
  id: 'rbac',
  render(ctx) {
    const docs: RenderedDoc[] = [];
    const common = chartLabels(ctx);
    const controllerLabels = chartLabels(ctx, 'controller');
    const sa: Subject = { name: controllerServiceAccountName(ctx), namespace: ctx.namespace };
    const namespaces = [...ctx.model.scope.roleNamespaces].sort();
    for (const [base, rules] of [
      ['getter', getterRules()],
      ['writer', writerRules()],
    ] as const) {
      const names = { role: nameOf(ctx, `${base}-role`), binding: nameOf(ctx, `${base}-rolebinding`) };
      const files = { role: `rbac/${base}-role.yaml`, binding: `rbac/${base}-rolebinding.yaml` };
      for (const namespace of namespaces.length === 0 ? [null] : namespaces) {
        docs.push(...rolePairDocs(ctx, { files, names, rules, subjects: [sa], labels: common, namespace }));
      }
    }

    if (num(ctx.values, 'controller.replicas', 1) > 1) {
      docs.push(
        ...rolePairDocs(ctx, {
          files: { role: 'rbac/leader-election-role.yaml', binding: 'rbac/leader-election-rolebinding.yaml' },
          names: { role: nameOf(ctx, 'leader-election-role'), binding: nameOf(ctx, 'leader-election-rolebinding') },
          rules: [rule(['coordination.k8s.io'], ['leases'], ['get', 'list', 'watch', 'create', 'update', 'patch']), rule([''], ['events'], ['create', 'patch'])],
          subjects: [sa],
          labels: controllerLabels,
          namespace: ctx.namespace,
        }),
      );
    }

    const metrics = metricsSettings(ctx);
    if (metrics.enabled) {
      const reader = nameOf(ctx, 'metrics-reader');
      docs.push(...roleDocs(ctx, 'rbac/metrics-reader-clusterrole.yaml', reader, [nonResourceRule(['/metrics'], ['get'])], controllerLabels, null));
      if (metrics.secure) {
        docs.push(
          ...rolePairDocs(ctx, {
            files: { role: 'rbac/metrics-auth-clusterrole.yaml', binding: 'rbac/metrics-auth-clusterrolebinding.yaml' },
            names: { role: nameOf(ctx, 'metrics-auth-role'), binding: nameOf(ctx, 'metrics-auth-rolebinding') },
            rules: [rule(['authentication.k8s.io'], ['tokenreviews'], ['create']), rule(['authorization.k8s.io'], ['subjectaccessreviews'], ['create'])],
            subjects: [sa],
            labels: controllerLabels,
            namespace: null,
          }),
        );
      }
      // service-monitor-scraper-binding-b: bind the reader to the scraper's account when named.
      const scraper = ctx.model.metrics.scraperServiceAccount;
      if (scraper) {
        const scraperNs = firstOf(str(ctx.values, 'controller.metrics.serviceMonitor.scraperServiceAccount.namespace'), str(ctx.values, 'controller.metrics.serviceMonitor.namespace'), ctx.release.namespace);
        docs.push(...bindingDocs(ctx, 'rbac/metrics-reader-clusterrolebinding.yaml', reader, reader, [{ name: scraper, namespace: scraperNs }], controllerLabels, null));
      }
    }
    return docs;
  },
};
