// mcpop-surface: every key of the MCP operator chart (v0.3.0) takes effect on exactly the objects
// and fields that chart puts it in. Facts: the docs/values.md section "mcpop" (taken from the reference
// measurements of the real chart).
import { describe, expect, it } from 'vitest';
import { lintText, obj, surfaceCases, where, type SurfaceCase } from './surface.ts';

const NAME = 'agentplat-mcpop-controller-manager';
const DEP = `Deployment/${NAME}`;
const POD = `${DEP}:spec.template.spec`;
const C = `${POD}.containers[0]`;
const SVC = `Service/${NAME}-metrics-service`;
const MANAGER = ['ClusterRole/agentplat-mcpop-manager-role', 'ClusterRoleBinding/agentplat-mcpop-manager-rolebinding'];
const METRICS_RBAC = ['ClusterRole/agentplat-mcpop-metrics-auth-role', 'ClusterRole/agentplat-mcpop-metrics-reader', 'ClusterRoleBinding/agentplat-mcpop-metrics-auth-rolebinding'];
const LEADER = ['Role/agentplat-mcpop-leader-election-role', 'RoleBinding/agentplat-mcpop-leader-election-rolebinding'];
const BINDINGS = [MANAGER[1], METRICS_RBAC[2], LEADER[1]];
const m = (v: Record<string, unknown>) => ({ mcpop: v });
const container = (docs: Parameters<typeof obj>[0]) => obj(docs, 'Deployment', NAME).spec.template.spec.containers[0];

const CASES: SurfaceCase[] = [
  {
    key: 'image.repository (a full path with its registry)',
    set: m({ image: { repository: 'mirror.example.com/ops/mcp-operator' } }),
    changes: [`${C}.image`],
    check: (d) => expect(container(d).image).toBe('mirror.example.com/ops/mcp-operator:v0.3.0'),
  },
  { key: 'image.tag', set: m({ image: { tag: 'v0.3.1' } }), changes: [`${C}.image`], check: (d) => expect(container(d).image).toBe('ghcr.io/agentplat/mcpop:v0.3.1') },
  { key: 'image.pullPolicy', set: m({ image: { pullPolicy: 'Always' } }), changes: [`${C}.imagePullPolicy`] },
  { key: 'imagePullSecrets', set: m({ imagePullSecrets: [{ name: 'mirror-pull' }] }), changes: [`${POD}.imagePullSecrets`] },
  {
    key: 'podAnnotations',
    set: m({ podAnnotations: { 'example.com/team': 'platform' } }),
    changes: [`${DEP}:spec.template.metadata.annotations.example.com/team`],
    check: (d) => expect(obj(d, 'Deployment', NAME).spec.template.metadata.annotations['kubectl.kubernetes.io/default-container']).toBe('manager'),
  },
  { key: 'controller.replicaCount', set: m({ controller: { replicaCount: 2 } }), changes: [`${DEP}:spec.replicas`] },
  {
    key: 'controller.leaderElection.enabled',
    set: m({ controller: { leaderElection: { enabled: false } } }),
    changes: [...LEADER.map((x) => `-${x}`), `${C}.args`],
    check: (d) => expect(container(d).args).toEqual(['--health-probe-bind-address=:8081', '--metrics-bind-address=:8443']),
  },
  {
    key: 'controller.healthProbe.bindAddress',
    set: m({ controller: { healthProbe: { bindAddress: ':9440' } } }),
    changes: [`${C}.args[1]`, `${C}.ports[1].containerPort`],
    check: (d) => expect(container(d).args[1]).toBe('--health-probe-bind-address=:9440'),
  },
  {
    key: 'controller.healthProbe.bindAddress empty',
    set: m({ controller: { healthProbe: { bindAddress: '' } } }),
    changes: [`${C}.args`, `${C}.ports[1]`, `${C}.livenessProbe`, `${C}.readinessProbe`],
    check: (d) => expect(container(d).ports).toEqual([{ name: 'metrics', containerPort: 8443, protocol: 'TCP' }]),
  },
  {
    key: 'controller.healthProbe.livenessProbe.*, readinessProbe.*',
    set: m({ controller: { healthProbe: { livenessProbe: { initialDelaySeconds: 30, periodSeconds: 40 }, readinessProbe: { initialDelaySeconds: 3, periodSeconds: 7 } } } }),
    changes: [`${C}.livenessProbe.initialDelaySeconds`, `${C}.livenessProbe.periodSeconds`, `${C}.readinessProbe.initialDelaySeconds`, `${C}.readinessProbe.periodSeconds`],
  },
  {
    key: 'controller.metrics.enabled',
    set: m({ controller: { metrics: { enabled: false } } }),
    changes: [`-${SVC}`, ...METRICS_RBAC.map((x) => `-${x}`), `${C}.args`, `${C}.ports`],
    check: (d) => expect(container(d).ports).toEqual([{ name: 'health', containerPort: 8081, protocol: 'TCP' }]),
  },
  {
    key: 'controller.metrics.bindAddress',
    set: m({ controller: { metrics: { bindAddress: '0.0.0.0:9443' } } }),
    changes: [`${C}.args[2]`, `${C}.ports[0].containerPort`],
    check: (d) => expect(container(d).args[2]).toBe('--metrics-bind-address=0.0.0.0:9443'),
  },
  { key: 'controller.env', set: m({ controller: { env: [{ name: 'HTTPS_PROXY', value: 'http://proxy:3128' }] } }), changes: [`${C}.env`] },
  { key: 'podSecurityContext', set: m({ podSecurityContext: { runAsNonRoot: true, runAsUser: 65532, seccompProfile: { type: 'RuntimeDefault' } } }), changes: [`${POD}.securityContext.runAsUser`] },
  {
    key: 'securityContext (replaces the top-level one)',
    set: m({ securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }),
    changes: [`${C}.securityContext.readOnlyRootFilesystem`],
  },
  { key: 'resources', set: m({ resources: { limits: { cpu: '1', memory: '256Mi' } } }), changes: [`${C}.resources.limits`] },
  { key: 'nodeSelector', set: m({ nodeSelector: { pool: 'system' } }), changes: [`${POD}.nodeSelector`] },
  { key: 'tolerations', set: m({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'system', effect: 'NoSchedule' }] }), changes: [`${POD}.tolerations`] },
  { key: 'affinity', set: m({ affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'mcpop' } } } }] } } }), changes: [`${POD}.affinity`] },
  {
    key: 'serviceAccount.create',
    set: m({ serviceAccount: { create: false } }),
    changes: [`-ServiceAccount/${NAME}`, `${POD}.serviceAccountName`, ...BINDINGS.map((b) => `${b}:subjects[0].name`)],
    check: (d) => expect(obj(d, 'Deployment', NAME).spec.template.spec.serviceAccountName).toBe('default'),
  },
  {
    key: 'serviceAccount.name',
    set: m({ serviceAccount: { name: 'mcp-operator' } }),
    changes: [`-ServiceAccount/${NAME}`, '+ServiceAccount/mcp-operator', `${POD}.serviceAccountName`, ...BINDINGS.map((b) => `${b}:subjects[0].name`)],
  },
  { key: 'serviceAccount.annotations', set: m({ serviceAccount: { annotations: { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/mcp' } } }), changes: [`ServiceAccount/${NAME}:metadata.annotations`] },
  { key: 'rbac.create', set: m({ rbac: { create: false } }), changes: [...MANAGER, ...METRICS_RBAC, ...LEADER].map((x) => `-${x}`) },
  {
    key: 'rbac.namespaces',
    set: m({ rbac: { namespaces: ['team-a', 'agentplat'] } }),
    changes: [...MANAGER.map((x) => `-${x}`), '+Role/agentplat-mcpop-manager-role', '+RoleBinding/agentplat-mcpop-manager-rolebinding', '+Role/agentplat-mcpop-manager-role@team-a', '+RoleBinding/agentplat-mcpop-manager-rolebinding@team-a', `${C}.args[3]`],
    check: (d) => expect(container(d).args[3]).toBe('--watch-namespaces=agentplat,team-a'),
  },
  { key: 'service.type', set: m({ service: { type: 'LoadBalancer' } }), changes: [`${SVC}:spec.type`] },
  { key: 'service.port', set: m({ service: { port: 443 } }), changes: [`${SVC}:spec.ports[0].port`] },
  { key: 'service.targetPort', set: m({ service: { targetPort: 9443 } }), changes: [`${SVC}:spec.ports[0].targetPort`] },
];

describe('mcpop-surface: each key of the MCP operator chart changes exactly its objects and fields', () => {
  surfaceCases(CASES, ['A', 'B']);
});

describe('mcpop-surface: values the cluster would refuse are linted at file:line:column', () => {
  it('values/subchart-rbac-namespace: rbac.namespaces without the operator namespace is an error', () => {
    const ps = lintText('A', 'mcpop:\n  rbac:\n    namespaces: [team-a]\n', { releaseNamespace: 'agentplat' }).filter((p) => p.rule === 'values/subchart-rbac-namespace');
    expect(where(ps)).toEqual(['values/subchart-rbac-namespace values.yaml:3:5 error']);
  });

  it('a metrics bind address without a port is a schema error', () => {
    const ps = lintText('B', 'mcpop:\n  controller:\n    metrics:\n      bindAddress: "0.0.0.0"\n').filter((p) => p.severity === 'error');
    expect(where(ps)).toEqual(['values/schema values.yaml:4:7 error']);
  });
});
