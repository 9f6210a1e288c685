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
import { asList, asMap, asStr, at } from '../../model/values-access.ts';
import { ownRoleScope, roleScopes } from './scope.ts';
import { platformRegistry, podView, subchartFiles, subchartLabels, type FileRun } from './workload.ts';

const CHART = 'mcpop';
export const MCPOP_METRICS_PORT = 8443;

export function mcpopFullname(ctx: RenderContext): string {
  return overrideFullname(ctx.release.name, block(ctx, 'mcpop'));
}

/** The port of a listen address (":8443", "0.0.0.0:8081"): its trailing digits, as the operator chart derives it. */
function bindPort(address: string): number | null {
  const m = /(\d+)$/.exec(address);
  return m ? Number(m[1]) : null;
}

export const mcpopComponent: Component = subchartFiles(CHART, (ctx, b, version) => {
  const fullname = mcpopFullname(ctx);
  const appVersion = `v${version}`;
  const { selector, labels } = subchartLabels(ctx, {
    name: asStr(b.nameOverride) || CHART,
    selectorExtra: { 'control-plane': 'controller-manager' },
    chart: CHART,
    chartVersion: appVersion,
  });
  const sa = asMap(b.serviceAccount);
  const createAccount = sa.create !== false;
  const serviceAccount = asStr(sa.name) || (createAccount ? dnsTrunc(`${fullname}-controller-manager`) : 'default');
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
  const scoped = ownRoleScope(ctx, CHART);
  const names = Object.fromEntries(Object.entries(suffixes).map(([k, s]) => [k, dnsTrunc(`${fullname}${s}`)]));
  const controller = asMap(b.controller);
  const leaderElection = at(controller, 'leaderElection.enabled') !== false;
  const healthAddress = asStr(at(controller, 'healthProbe.bindAddress'));
  const metricsOn = at(controller, 'metrics.enabled') !== false;
  const metricsAddress = asStr(at(controller, 'metrics.bindAddress')) || `:${MCPOP_METRICS_PORT}`;
  const healthPort = healthAddress ? bindPort(healthAddress) : null;
  const probeTimings = (which: string, delay: number, period: number) => {
    const p = asMap(at(controller, `healthProbe.${which}`));
    return {
      initialDelaySeconds: typeof p.initialDelaySeconds === 'number' ? p.initialDelaySeconds : delay,
      periodSeconds: typeof p.periodSeconds === 'number' ? p.periodSeconds : period,
    };
  };
  const rbacCreate = at(b, 'rbac.create') !== false;
  const service = asMap(b.service);
  const image = asMap(b.image);
  const tag = asStr(image.tag) || appVersion;
  const view = {
    names,
    namespace: subchartNamespace(ctx, b),
    labels,
    selector,
    serviceAccount,
    serviceAccountAnnotations: asMap(sa.annotations),
    replicas: typeof controller.replicaCount === 'number' ? controller.replicaCount : 1,
    args: [
      ...(leaderElection ? ['--leader-elect'] : []),
      ...(healthAddress ? [`--health-probe-bind-address=${healthAddress}`] : []),
      ...(metricsOn ? [`--metrics-bind-address=${metricsAddress}`] : []),
      ...(scoped.length > 0 ? [`--watch-namespaces=${scoped.join(',')}`] : []),
    ],
    ports: [
      ...(metricsOn ? [{ name: 'metrics', containerPort: bindPort(metricsAddress), protocol: 'TCP' }] : []),
      ...(healthPort !== null ? [{ name: 'health', containerPort: healthPort, protocol: 'TCP' }] : []),
    ],
    healthPort,
    liveness: probeTimings('livenessProbe', 15, 20),
    readiness: probeTimings('readinessProbe', 5, 10),
    env: asList(controller.env),
    resources: asMap(b.resources),
    affinity: asMap(b.affinity),
    serviceType: asStr(service.type) || 'ClusterIP',
    servicePort: typeof service.port === 'number' ? service.port : MCPOP_METRICS_PORT,
    serviceTargetPort: typeof service.targetPort === 'number' ? service.targetPort : MCPOP_METRICS_PORT,
    ...podView(ctx, {
      // `image.repository` is a whole path with its registry (the operator chart's key).
      image: asStr(image.repository) ? `${asStr(image.repository)}:${tag}` : { registry: platformRegistry(ctx), repository: 'agentplat/mcpop', tag },
      podAnnotations: { 'kubectl.kubernetes.io/default-container': 'manager' },
      own: { podSecurityContext: b.podSecurityContext, securityContext: b.securityContext, nodeSelector: b.nodeSelector, tolerations: b.tolerations },
      pull: { policy: asStr(image.pullPolicy), secrets: b.imagePullSecrets, podAnnotations: b.podAnnotations },
    }),
  };
  const runs: FileRun[] = [
    ...(rbacCreate ? roleScopes(scoped) : []).map((scope): FileRun => ['rbac.yaml', 'mcpop/manager-rbac.yaml.hbs', { ...view, scope }]),
    ...(createAccount ? [['serviceaccount.yaml', 'mcpop/serviceaccount.yaml.hbs', view] as const] : []),
    ...(rbacCreate && metricsOn ? [['rbac.yaml', 'mcpop/metrics-rbac.yaml.hbs', view] as const] : []),
    ...(rbacCreate && leaderElection ? [['rbac.yaml', 'mcpop/leader-election-rbac.yaml.hbs', view] as const] : []),
    ...(metricsOn ? [['service.yaml', 'mcpop/service.yaml.hbs', view] as const] : []),
    ['deployment.yaml', 'mcpop/deployment.yaml.hbs', view],
  ];
  return runs;
});
