// The tools server sub-chart (`agentplat-tools.*`, on by default): the MCP server whose tools the
// bundled agents use. Every key of spec §2.11 takes effect here, including `resources` and
// `tools.loglevel`, which the upstream chart ignored (decisions.md). The server mutates arbitrary
// cluster objects on the agents' behalf, hence its cluster-wide role; a namespace-scoped install
// ([B] global-watch-namespaces-scope, ./scope.ts) gets one Role + RoleBinding per namespace
// instead (the tools chart's own namespaced mode: no non-resource rule).
// Its registration (RemoteMCPServer `<fullname>-tool-server`) belongs to the main chart; the
// names it needs come from ./names.ts.

import { dnsTrunc, type Component } from '../../model/context.ts';
import { asMap, asStr, at } from '../../model/values-access.ts';
import { TOOLS_HTTP_PORT, toolsFullname, toolsNamespace } from './names.ts';
import { roleScopes, subchartRoleScope } from './scope.ts';
import { platformRegistry, podView, subchartComponent, subchartDocs, subchartLabels } from './workload.ts';

const CHART = 'agentplat-tools';
/** Env variable and Secret key of the API key the tools server's LLM-backed tools use (the hosted chat provider's). */
export const TOOLS_LLM_KEY = 'PROVIDERB_API_KEY';

export const toolsComponent: Component = subchartComponent(CHART, (ctx, b, version) => {
  const fullname = toolsFullname(ctx);
  const { selector, labels } = subchartLabels(ctx, { name: fullname, chart: CHART, chartVersion: version });
  const metricsPortRaw = at(b, 'tools.metrics.port');
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
      // The LLM-backed tools read their API key from this Secret when it exists; the chart never
      // creates it (optional), so creating it later turns those tools on.
      { name: TOOLS_LLM_KEY, valueFrom: { secretKeyRef: { name: dnsTrunc(`${fullname}-providerb`), key: TOOLS_LLM_KEY, optional: true } } },
      { name: 'LOG_LEVEL', value: asStr(at(b, 'tools.loglevel')) || 'info' },
    ],
    ...podView(ctx, {
      image: { registry: platformRegistry(ctx), repository: 'agentplat/tools', tag: `v${version}` },
      // the block's own security context replaces the top-level one (it is a complete one in the defaults).
      own: { podSecurityContext: b.podSecurityContext, securityContext: b.securityContext, nodeSelector: b.nodeSelector, tolerations: b.tolerations },
    }),
    resources: asMap(b.resources),
  };
  const files: [string, string][] = [
    ['serviceaccount.yaml', 'agentplat-tools/serviceaccount.yaml.hbs'],
    ['service.yaml', 'agentplat-tools/service.yaml.hbs'],
    ['deployment.yaml', 'agentplat-tools/deployment.yaml.hbs'],
  ];
  return [
    ...roleScopes(subchartRoleScope(ctx)).flatMap((scope) => subchartDocs(CHART, [['clusterrole.yaml', 'agentplat-tools/rbac.yaml.hbs']], { ...view, scope })),
    ...subchartDocs(CHART, files, view),
  ];
});
