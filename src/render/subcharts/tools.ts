// The tools server sub-chart (`agentplat-tools.*`, on by default): the MCP server whose tools the
// bundled agents use. Every key of spec §2.11 takes effect here, including `resources` and
// `tools.loglevel`, which the upstream chart ignored (decisions.md). The server mutates arbitrary
// cluster objects on the agents' behalf, hence its cluster-wide role; a namespace-scoped install
// ([B] global-watch-namespaces-scope, ./scope.ts) gets one Role + RoleBinding per namespace
// instead (the tools chart's own namespaced mode: no non-resource rule).
// Its registration (RemoteMCPServer `<fullname>-tool-server`) belongs to the main chart; the
// names it needs come from ./names.ts.

import { renderDocs } from '../engine.ts';
import { dnsTrunc, type Component } from '../context.ts';
import {
  block,
  chartLabel,
  containerSecurityContext,
  deploymentAnnotations,
  enabled,
  get,
  imageRef,
  map,
  MANAGED_BY,
  nodeSelector,
  podAnnotations,
  podSecurityContext,
  pullPolicy,
  pullSecrets,
  registry,
  str,
  subchartSource,
  tolerations,
  withTopLevelLabels,
  type Labels,
} from './common.ts';
import { TOOLS_HTTP_PORT, toolsFullname, toolsNamespace } from './names.ts';
import { subchartRoleScope } from './scope.ts';

const CHART = 'agentplat-tools';

export const toolsComponent: Component = {
  id: 'agentplat-tools',
  render(ctx) {
    if (!enabled(ctx, CHART)) return [];
    const b = block(ctx, CHART);
    const fullname = toolsFullname(ctx);
    const version = ctx.rev.subcharts[CHART] ?? '';
    const selector: Labels = { 'app.kubernetes.io/name': fullname, 'app.kubernetes.io/instance': ctx.release.name };
    const labels = withTopLevelLabels(ctx, {
      'helm.sh/chart': chartLabel('agentplat-tools', version),
      ...selector,
      'app.kubernetes.io/version': version,
      'app.kubernetes.io/managed-by': MANAGED_BY,
    });
    const metricsPortRaw = get(b, 'tools.metrics.port');
    const metricsPort = typeof metricsPortRaw === 'number' && metricsPortRaw > 0 ? metricsPortRaw : TOOLS_HTTP_PORT;
    const replicas = typeof b.replicaCount === 'number' ? b.replicaCount : 1;
    const view = {
      fullname,
      metricsName: dnsTrunc(`${fullname}-metrics`),
      roleName: dnsTrunc(`${fullname}-cluster-admin-role`),
      bindingName: dnsTrunc(`${fullname}-cluster-admin-rolebinding`),
      namespace: toolsNamespace(ctx),
      labels,
      metricsLabels: { ...labels, 'app.kubernetes.io/component': 'metrics' },
      selector,
      replicas,
      httpPort: TOOLS_HTTP_PORT,
      metricsPort,
      // metrics on their own port unless it equals the MCP port (then /metrics is served there).
      separateMetrics: metricsPort !== TOOLS_HTTP_PORT,
      args: ['--port', String(TOOLS_HTTP_PORT), '--metrics-port', String(metricsPort)],
      env: [
        { name: 'AGENTPLAT_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'LOG_LEVEL', value: str(get(b, 'tools.loglevel')) || 'info' },
      ],
      image: imageRef(registry(ctx, str(ctx.values.registry) || 'ghcr.io'), 'agentplat/tools', `v${version}`),
      pullPolicy: pullPolicy(ctx),
      pullSecrets: pullSecrets(ctx),
      deploymentAnnotations: deploymentAnnotations(ctx),
      podAnnotations: podAnnotations(ctx),
      podSecurityContext: podSecurityContext(ctx, b.podSecurityContext),
      // the block's own security context replaces the top-level one (it is a complete one in the defaults).
      securityContext: Object.keys(map(b.securityContext)).length > 0 ? map(b.securityContext) : containerSecurityContext(ctx),
      resources: map(b.resources),
      nodeSelector: nodeSelector(ctx, b.nodeSelector),
      tolerations: tolerations(ctx, b.tolerations),
    };
    const files: [string, string][] = [
      ['serviceaccount.yaml', 'agentplat-tools/serviceaccount.yaml.hbs'],
      ['service.yaml', 'agentplat-tools/service.yaml.hbs'],
      ['deployment.yaml', 'agentplat-tools/deployment.yaml.hbs'],
    ];
    const scoped = subchartRoleScope(ctx);
    const scopes =
      scoped.length === 0
        ? [{ roleKind: 'ClusterRole', bindingKind: 'ClusterRoleBinding', namespace: null }]
        : scoped.map((ns) => ({ roleKind: 'Role', bindingKind: 'RoleBinding', namespace: ns }));
    return [
      ...scopes.flatMap((scope) => renderDocs(subchartSource(CHART, 'clusterrole.yaml'), 'agentplat-tools/rbac.yaml.hbs', { ...view, scope })),
      ...files.flatMap(([file, tpl]) => renderDocs(subchartSource(CHART, file), tpl, view)),
    ];
  },
};
