// The MCP operator sub-chart (`mcpop.*`, on by default): the operator that runs MCPServer
// resources as Deployments. Its MCPServer CRD is placed by the render pipeline (src/crds), not here.
// Rendered with the operator chart's own defaults: leader election, health probes on :8081 and
// HTTPS metrics on :8443 (with the token-review RBAC its metrics endpoint needs), and a
// cluster-wide manager role, or, when the install is namespace-scoped ([B]
// global-watch-namespaces-scope), one manager Role + RoleBinding per scoped namespace and a
// --watch-namespaces flag (the operator chart's own namespaced mode). The spec exposes only
// enabled, nameOverride, fullnameOverride, namespaceOverride.

import { dnsTrunc, type Component, type RenderContext } from '../../model/context.ts';
import { block, overrideFullname, subchartNamespace } from './common.ts';
import { asStr } from '../../model/values-access.ts';
import { roleScopes, subchartRoleScope } from './scope.ts';
import { platformRegistry, podView, subchartComponent, subchartDocs, subchartLabels } from './workload.ts';

const CHART = 'mcpop';
export const MCPOP_METRICS_PORT = 8443;
export const MCPOP_HEALTH_PORT = 8081;

export function mcpopFullname(ctx: RenderContext): string {
  return overrideFullname(ctx.release.name, block(ctx, 'mcpop'));
}

export const mcpopComponent: Component = subchartComponent(CHART, (ctx, b, version) => {
  const fullname = mcpopFullname(ctx);
  const appVersion = `v${version}`;
  const { selector, labels } = subchartLabels(ctx, {
    name: asStr(b.nameOverride) || CHART,
    selectorExtra: { 'control-plane': 'controller-manager' },
    chart: CHART,
    chartVersion: appVersion,
  });
  const serviceAccount = dnsTrunc(`${fullname}-controller-manager`);
  const suffixes = {
    controllerManager: '-controller-manager',
    controllerManagerMetricsService: '-controller-manager-metrics-service',
    leaderElectionRole: '-leader-election-role',
    leaderElectionRolebinding: '-leader-election-rolebinding',
    managerRole: '-manager-role',
    managerRolebinding: '-manager-rolebinding',
    metricsAuthRole: '-metrics-auth-role',
    metricsAuthRolebinding: '-metrics-auth-rolebinding',
    metricsReader: '-metrics-reader',
  };
  const scoped = subchartRoleScope(ctx);
  const names = Object.fromEntries(Object.entries(suffixes).map(([k, s]) => [k, dnsTrunc(`${fullname}${s}`)]));
  const view = {
    names,
    namespace: subchartNamespace(ctx, b),
    labels,
    selector,
    serviceAccount,
    metricsPort: MCPOP_METRICS_PORT,
    healthPort: MCPOP_HEALTH_PORT,
    healthArg: `--health-probe-bind-address=:${MCPOP_HEALTH_PORT}`,
    metricsArg: `--metrics-bind-address=:${MCPOP_METRICS_PORT}`,
    watchArg: scoped.length > 0 ? `--watch-namespaces=${scoped.join(',')}` : null,
    ...podView(ctx, {
      image: { registry: platformRegistry(ctx), repository: 'agentplat/mcpop', tag: appVersion },
      podAnnotations: { 'kubectl.kubernetes.io/default-container': 'manager' },
    }),
  };
  const files: [string, string][] = [
    ['serviceaccount.yaml', 'mcpop/serviceaccount.yaml.hbs'],
    ['rbac.yaml', 'mcpop/rbac.yaml.hbs'],
    ['service.yaml', 'mcpop/service.yaml.hbs'],
    ['deployment.yaml', 'mcpop/deployment.yaml.hbs'],
  ];
  return [
    ...roleScopes(scoped).flatMap((scope) => subchartDocs(CHART, [['rbac.yaml', 'mcpop/manager-rbac.yaml.hbs']], { ...view, scope })),
    ...subchartDocs(CHART, files, view),
  ];
});
