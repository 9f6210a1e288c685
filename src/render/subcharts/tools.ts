// The tools server sub-chart (`agentplat-tools.*`, on by default): the MCP server whose tools the
// bundled agents use. Every key of spec §2.11 takes effect here, including `resources` and
// `tools.loglevel`, which the upstream chart ignored (decisions.md), and so do the keys of the
// pinned tools chart (image, service, roles, tracing, ServiceMonitor, pod settings; docs/values.md,
// "agentplat-tools"). The server mutates arbitrary cluster objects on the agents' behalf, hence its
// cluster-wide role by default; `rbac.namespaces` (or a namespace-scoped install, [B]
// global-watch-namespaces-scope, ./scope.ts) gives one Role + RoleBinding per namespace instead
// (no non-resource rule), and `rbac.readOnly` a get/list/watch role.
// Its registration (RemoteMCPServer `<fullname>-tool-server`) belongs to the main chart; the
// names it needs come from ./names.ts.

import { dnsTrunc, type Component } from '../../model/context.ts';
import { asBool, asList, asMap, asStr, at, present, str } from '../../model/values-access.ts';
import type { Values } from '../../values/merge.ts';
import { MONITORING_API } from '../../chart/cluster-apis.ts';
import { toolsFullname, toolsNamespace, toolsServicePort } from './names.ts';
import { ownRoleScope, roleScopes } from './scope.ts';
import { platformRegistry, podView, subchartFiles, subchartLabels, type FileRun } from './workload.ts';

const CHART = 'agentplat-tools';
/** Env variable and Secret key of the API key the tools server's LLM-backed tools use (the hosted chat provider's). */
export const TOOLS_LLM_KEY = 'PROVIDERB_API_KEY';
/** The container port when `service.ports.tools.targetPort` is unset. */
const DEFAULT_TARGET_PORT = 8084;

/** Rules of the read-only role (`rbac.readOnly`): get/list/watch on the objects the tools inspect. */
const READ = ['get', 'list', 'watch'];
const READ_ONLY_RULES: readonly Values[] = [
  { apiGroups: [''], resources: ['pods', 'services', 'endpoints', 'configmaps', 'serviceaccounts', 'persistentvolumeclaims', 'replicationcontrollers', 'namespaces'], verbs: READ },
  { apiGroups: [''], resources: ['pods/log'], verbs: ['get', 'list'] },
  { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: READ },
  { apiGroups: ['apps'], resources: ['deployments', 'statefulsets', 'daemonsets', 'replicasets'], verbs: READ },
  { apiGroups: ['batch'], resources: ['jobs', 'cronjobs'], verbs: READ },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'networkpolicies'], verbs: READ },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: READ },
];

/** A part of the tools image: the `image.*` alias when non-empty, else `tools.image.*`. */
function imagePart(b: Values, part: string): string {
  return asStr(at(b, `image.${part}`)) || asStr(at(b, `tools.image.${part}`));
}

/** Rules of the tools role: full access, or the read-only set with its additions. */
function roleRules(b: Values, clusterWide: boolean): Values[] {
  const rbac = asMap(b.rbac);
  if (rbac.readOnly !== true) {
    const all: Values[] = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];
    return clusterWide ? [...all, { nonResourceURLs: ['*'], verbs: ['*'] }] : all;
  }
  return [
    ...READ_ONLY_RULES,
    ...(rbac.allowSecrets === true ? [{ apiGroups: [''], resources: ['secrets'], verbs: READ }] : []),
    ...(asList(rbac.additionalRules) as Values[]),
  ];
}

export const toolsComponent: Component = subchartFiles(CHART, (ctx, b, version) => {
  const fullname = toolsFullname(ctx);
  const namespace = toolsNamespace(ctx);
  const { selector, labels } = subchartLabels(ctx, { name: fullname, chart: CHART, chartVersion: version });
  const toolsPort = asMap(at(b, 'service.ports.tools'));
  const targetPort = typeof toolsPort.targetPort === 'number' ? toolsPort.targetPort : DEFAULT_TARGET_PORT;
  const metricsPortRaw = at(b, 'tools.metrics.port');
  const metricsPort = typeof metricsPortRaw === 'number' && metricsPortRaw > 0 ? metricsPortRaw : targetPort;
  const replicas = typeof b.replicaCount === 'number' ? b.replicaCount : 1;
  const serviceType = asStr(at(b, 'service.type')) || 'ClusterIP';
  const enabledTools = asList(at(b, 'tools.enabledTools')).map((t) => asStr(t)).filter(Boolean);
  const otlp = asMap(at(b, 'otel.tracing.exporter.otlp'));
  const ownResources = asMap(at(b, 'tools.resources'));
  const readOnly = at(b, 'rbac.readOnly') === true;
  const defaultAccount = b.useDefaultServiceAccount === true;
  const monitor = asMap(at(b, 'tools.metrics.servicemonitor'));
  const view = {
    fullname,
    serviceAccount: defaultAccount ? 'default' : fullname,
    metricsName: dnsTrunc(`${fullname}-metrics`),
    roleName: dnsTrunc(`${fullname}-${readOnly ? 'read-role' : 'cluster-admin-role'}`),
    bindingName: dnsTrunc(`${fullname}-${readOnly ? 'read-rolebinding' : 'cluster-admin-rolebinding'}`),
    namespace,
    labels,
    metricsLabels: { ...labels, 'app.kubernetes.io/component': 'metrics' },
    selector,
    metricsSelector: { ...selector, 'app.kubernetes.io/component': 'metrics' },
    replicas,
    serviceType,
    servicePort: toolsServicePort(ctx),
    nodePort: serviceType === 'NodePort' && typeof toolsPort.nodePort === 'number' ? toolsPort.nodePort : null,
    httpPort: targetPort,
    metricsPort,
    // metrics on their own port unless it equals the MCP port (then /metrics is served there).
    separateMetrics: metricsPort !== targetPort,
    args: [
      '--port', String(targetPort), '--metrics-port', String(metricsPort),
      ...(enabledTools.length > 0 ? [`--tools=${enabledTools.join(',')}`] : []),
      ...asList(at(b, 'tools.args')).map((a) => asStr(a)),
    ],
    env: [
      { name: 'AGENTPLAT_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      // The LLM-backed tools read their API key from this Secret when it exists; the chart never
      // creates it (optional), so creating it later turns those tools on.
      { name: TOOLS_LLM_KEY, valueFrom: { secretKeyRef: { name: dnsTrunc(`${fullname}-providerb`), key: TOOLS_LLM_KEY, optional: true } } },
      { name: 'LOG_LEVEL', value: asStr(at(b, 'tools.loglevel')) || 'info' },
      // Always set, as the tools chart does: without an endpoint the server's tracing SDK falls
      // back to printing every span to its log (issue 27).
      { name: 'OTEL_TRACING_ENABLED', value: String(at(b, 'otel.tracing.enabled') === true) },
      { name: 'OTEL_EXPORTER_OTLP_ENDPOINT', value: asStr(otlp.endpoint) },
      { name: 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', value: String(typeof otlp.timeout === 'number' ? otlp.timeout : 15) },
      { name: 'OTEL_EXPORTER_OTLP_TRACES_INSECURE', value: String(asBool(otlp.insecure, true)) },
      { name: 'TOKEN_PASSTHROUGH', value: String(at(b, 'tools.k8s.tokenPassthrough') === true) },
      ...asList(at(b, 'tools.env')),
    ],
    ...podView(ctx, {
      image: {
        registry: imagePart(b, 'registry') || platformRegistry(ctx),
        repository: imagePart(b, 'repository') || 'agentplat/tools',
        // [B] global.tag is the tools chart's first choice (A has no global keys).
        tag: str(ctx.values, 'global.tag') || imagePart(b, 'tag') || `v${version}`,
      },
      // the block's own security context replaces the top-level one (it is a complete one in the defaults).
      own: { podSecurityContext: b.podSecurityContext, securityContext: b.securityContext, nodeSelector: b.nodeSelector, tolerations: b.tolerations },
      pull: { policy: imagePart(b, 'pullPolicy'), secrets: b.imagePullSecrets, podAnnotations: b.podAnnotations },
    }),
    affinity: asMap(b.affinity),
    // An entry without a labelSelector spreads the tools pods (the tools chart fills it in).
    topologySpreadConstraints: asList(b.topologySpreadConstraints).map((c) => {
      const entry = asMap(c);
      return present(entry.labelSelector) ? entry : { ...entry, labelSelector: { matchLabels: selector } };
    }),
    resources: Object.keys(ownResources).length > 0 ? ownResources : asMap(b.resources),
    monitor: {
      name: fullname,
      labels: asMap(monitor.labels),
      interval: asStr(monitor.interval),
      scrapeTimeout: asStr(monitor.scrapeTimeout),
      path: asStr(monitor.path) || '/metrics',
    },
  };
  const roles = !defaultAccount && at(b, 'rbac.create') !== false ? roleScopes(ownRoleScope(ctx, CHART)) : [];
  const runs: FileRun[] = [
    ...roles.map((scope): FileRun => ['clusterrole.yaml', 'agentplat-tools/rbac.yaml.hbs', { ...view, scope, rules: roleRules(b, scope.namespace === null) }]),
    ...(defaultAccount ? [] : [['serviceaccount.yaml', 'agentplat-tools/serviceaccount.yaml.hbs', view] as const]),
    ['service.yaml', 'agentplat-tools/service.yaml.hbs', view],
    ['deployment.yaml', 'agentplat-tools/deployment.yaml.hbs', view],
  ];
  // Like the controller's, the ServiceMonitor renders only where the cluster serves its API
  // (decisions.md); lint says so when it is enabled without it.
  if (monitor.enabled === true && ctx.capabilities.has(MONITORING_API, 'ServiceMonitor')) runs.push(['servicemonitor.yaml', 'agentplat-tools/servicemonitor.yaml.hbs', view]);
  return runs;
});
