// The MCP operator sub-chart (`mcpop.*`, on by default): the operator that runs MCPServer
// resources as Deployments. Its MCPServer CRD is placed by the render pipeline (src/crds), not here.
// Rendered with the operator chart's own defaults: leader election, health probes on :8081 and
// HTTPS metrics on :8443 (with the token-review RBAC its metrics endpoint needs), and a
// cluster-wide manager role, or, when the install is namespace-scoped ([B]
// global-watch-namespaces-scope), one manager Role + RoleBinding per scoped namespace and a
// --watch-namespaces flag (the operator chart's own namespaced mode). The spec exposes only
// enabled, nameOverride, fullnameOverride, namespaceOverride.

import { renderDocs } from '../engine.ts';
import { dnsTrunc, type Component, type RenderContext } from '../context.ts';
import {
  block,
  chartLabel,
  containerSecurityContext,
  deploymentAnnotations,
  enabled,
  imageRef,
  MANAGED_BY,
  nodeSelector,
  overrideFullname,
  podAnnotations,
  podSecurityContext,
  pullPolicy,
  pullSecrets,
  registry,
  str,
  subchartNamespace,
  subchartSource,
  tolerations,
  withTopLevelLabels,
  type Labels,
} from './common.ts';
import { subchartRoleScope } from './scope.ts';

const CHART = 'mcpop';
export const MCPOP_METRICS_PORT = 8443;
export const MCPOP_HEALTH_PORT = 8081;

export function mcpopFullname(ctx: RenderContext): string {
  return overrideFullname(ctx.release.name, block(ctx, 'mcpop'));
}

export const mcpopComponent: Component = {
  id: 'mcpop',
  render(ctx) {
    if (!enabled(ctx, 'mcpop')) return [];
    const b = block(ctx, 'mcpop');
    const fullname = mcpopFullname(ctx);
    const version = ctx.rev.subcharts.mcpop ?? '';
    const appVersion = `v${version}`;
    const selector: Labels = {
      'app.kubernetes.io/name': str(b.nameOverride) || CHART,
      'app.kubernetes.io/instance': ctx.release.name,
      'control-plane': 'controller-manager',
    };
    const labels = withTopLevelLabels(ctx, {
      'helm.sh/chart': chartLabel(CHART, appVersion),
      ...selector,
      'app.kubernetes.io/version': appVersion,
      'app.kubernetes.io/managed-by': MANAGED_BY,
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
      image: imageRef(registry(ctx, str(ctx.values.registry) || 'ghcr.io'), 'agentplat/mcpop', appVersion),
      pullPolicy: pullPolicy(ctx),
      pullSecrets: pullSecrets(ctx),
      deploymentAnnotations: deploymentAnnotations(ctx),
      podAnnotations: podAnnotations(ctx, { 'kubectl.kubernetes.io/default-container': 'manager' }),
      podSecurityContext: podSecurityContext(ctx),
      securityContext: containerSecurityContext(ctx),
      nodeSelector: nodeSelector(ctx),
      tolerations: tolerations(ctx),
    };
    const files: [string, string][] = [
      ['serviceaccount.yaml', 'mcpop/serviceaccount.yaml.hbs'],
      ['rbac.yaml', 'mcpop/rbac.yaml.hbs'],
      ['service.yaml', 'mcpop/service.yaml.hbs'],
      ['deployment.yaml', 'mcpop/deployment.yaml.hbs'],
    ];
    const scopes =
      scoped.length === 0
        ? [{ roleKind: 'ClusterRole', bindingKind: 'ClusterRoleBinding', namespace: null }]
        : scoped.map((ns) => ({ roleKind: 'Role', bindingKind: 'RoleBinding', namespace: ns }));
    return [
      ...scopes.flatMap((scope) => renderDocs(subchartSource(CHART, 'rbac.yaml'), 'mcpop/manager-rbac.yaml.hbs', { ...view, scope })),
      ...files.flatMap(([file, tpl]) => renderDocs(subchartSource(CHART, file), tpl, view)),
    ];
  },
};
