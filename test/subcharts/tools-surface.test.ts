// agentplat-tools-surface: every key of the tools chart (0.2.1; B 0.3.0 assumed to keep them,
// docs/decisions.md) takes effect on exactly the objects and fields the tools chart puts it in.
// Facts: the tools chart's keys, types, defaults and effects as listed in the docs/values.md section
// "agentplat-tools" (taken from the reference measurements of the real chart).
import { describe, expect, it } from 'vitest';
import { lintText, obj, surfaceCases, where, type SurfaceCase } from './surface.ts';
import { migrateValues } from '../../src/pipeline/migrate.ts';
import { parse } from 'yaml';

const DEP = 'Deployment/agentplat-tools';
const POD = `${DEP}:spec.template.spec`;
const C = `${POD}.containers[0]`;
const SVC = 'Service/agentplat-tools';
const RMCP = 'RemoteMCPServer/agentplat-tool-server';
const ADMIN = ['ClusterRole/agentplat-tools-cluster-admin-role', 'ClusterRoleBinding/agentplat-tools-cluster-admin-rolebinding'];
const READ = ['ClusterRole/agentplat-tools-read-role', 'ClusterRoleBinding/agentplat-tools-read-rolebinding'];
const MONITOR_API = ['monitoring.coreos.com/v1'];
const t = (v: Record<string, unknown>) => ({ 'agentplat-tools': v });
const container = (docs: Parameters<typeof obj>[0]) => obj(docs, 'Deployment', 'agentplat-tools').spec.template.spec.containers[0];
const env = (docs: Parameters<typeof obj>[0], name: string) => container(docs).env.find((e: { name: string }) => e.name === name)?.value;

const CASES: SurfaceCase[] = [
  { key: 'tools.image.registry', set: t({ tools: { image: { registry: 'mirror.example.com' } } }), changes: [`${C}.image`], check: (d) => expect(container(d).image).toMatch(/^mirror\.example\.com\/agentplat\/tools:v0\.[23]\.[01]$/) },
  { key: 'tools.image.repository', set: t({ tools: { image: { repository: 'team/tool-server' } } }), changes: [`${C}.image`], check: (d) => expect(container(d).image).toMatch(/^ghcr\.io\/team\/tool-server:v/) },
  { key: 'tools.image.tag', set: t({ tools: { image: { tag: 'v0.2.1-patched' } } }), changes: [`${C}.image`], check: (d) => expect(container(d).image).toBe('ghcr.io/agentplat/tools:v0.2.1-patched') },
  { key: 'tools.image.pullPolicy', set: t({ tools: { image: { pullPolicy: 'Always' } } }), changes: [`${C}.imagePullPolicy`], check: (d) => expect(container(d).imagePullPolicy).toBe('Always') },
  {
    key: 'image.* (alias of tools.image.*)',
    set: t({ image: { registry: 'mirror.example.com', repository: 'mirror/tools', tag: 'v9', pullPolicy: 'Never' } }),
    changes: [`${C}.image`, `${C}.imagePullPolicy`],
    check: (d) => expect([container(d).image, container(d).imagePullPolicy]).toEqual(['mirror.example.com/mirror/tools:v9', 'Never']),
  },
  { key: 'global.tag', revisions: ['B'], set: { global: { tag: 'v0.3.0-rc1' }, 'agentplat-tools': { tools: { image: { tag: 'ignored' } } } }, base: t({ tools: { image: { tag: 'ignored' } } }), changes: [`${C}.image`], check: (d) => expect(container(d).image).toBe('ghcr.io/agentplat/tools:v0.3.0-rc1') },
  {
    key: 'tools.resources (replaces resources)',
    set: t({ tools: { resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '1', memory: '512Mi' } } } }),
    changes: [`${C}.resources`],
    check: (d) => expect(container(d).resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '1', memory: '512Mi' } }),
  },
  { key: 'tools.args', set: t({ tools: { args: ['--read-only'] } }), changes: [`${C}.args[4]`], check: (d) => expect(container(d).args).toEqual(['--port', '8084', '--metrics-port', '8085', '--read-only']) },
  {
    key: 'tools.enabledTools',
    set: t({ tools: { enabledTools: ['k8s', 'helm'], args: ['--read-only'] } }),
    base: t({ tools: { args: ['--read-only'] } }),
    changes: [`${C}.args[4]`, `${C}.args[5]`],
    check: (d) => expect(container(d).args).toEqual(['--port', '8084', '--metrics-port', '8085', '--tools=k8s,helm', '--read-only']),
  },
  { key: 'tools.env', set: t({ tools: { env: [{ name: 'HTTPS_PROXY', value: 'http://proxy:3128' }] } }), changes: [`${C}.env[8]`], check: (d) => expect(env(d, 'HTTPS_PROXY')).toBe('http://proxy:3128') },
  { key: 'tools.k8s.tokenPassthrough', set: t({ tools: { k8s: { tokenPassthrough: true } } }), changes: [`${C}.env[7].value`], check: (d) => expect(env(d, 'TOKEN_PASSTHROUGH')).toBe('true') },
  { key: 'tools.metrics.servicemonitor.enabled', set: t({ tools: { metrics: { servicemonitor: { enabled: true } } } }), apiVersions: MONITOR_API, changes: ['+ServiceMonitor/agentplat-tools'],
    check: (d) => {
      const sm = obj(d, 'ServiceMonitor', 'agentplat-tools');
      expect(sm.metadata.labels).toEqual({ release: 'prometheus' });
      expect(sm.spec.endpoints).toEqual([{ port: 'prometheus-metrics', path: '/metrics', interval: '30s', scrapeTimeout: '10s' }]);
      expect(sm.spec.selector.matchLabels['app.kubernetes.io/component']).toBe('metrics');
    } },
  { key: 'tools.metrics.servicemonitor.enabled without the monitoring API', set: t({ tools: { metrics: { servicemonitor: { enabled: true } } } }), changes: [] },
  {
    key: 'tools.metrics.servicemonitor.interval, scrapeTimeout, path, labels',
    base: t({ tools: { metrics: { servicemonitor: { enabled: true } } } }),
    set: t({ tools: { metrics: { servicemonitor: { interval: '1m', scrapeTimeout: '20s', path: '/metricz', labels: { team: 'sre' } } } } }),
    apiVersions: MONITOR_API,
    changes: ['ServiceMonitor/agentplat-tools:spec.endpoints[0].interval', 'ServiceMonitor/agentplat-tools:spec.endpoints[0].scrapeTimeout', 'ServiceMonitor/agentplat-tools:spec.endpoints[0].path', 'ServiceMonitor/agentplat-tools:metadata.labels'],
    // a labels map merges over the default one (helm's map merge), so release: prometheus stays.
    check: (d) => expect(obj(d, 'ServiceMonitor', 'agentplat-tools').metadata.labels).toEqual({ release: 'prometheus', team: 'sre' }),
  },
  { key: 'service.type', set: t({ service: { type: 'NodePort' } }), changes: [`${SVC}:spec.type`] },
  { key: 'service.ports.tools.nodePort', base: t({ service: { type: 'NodePort' } }), set: t({ service: { ports: { tools: { nodePort: 30084 } } } }), changes: [`${SVC}:spec.ports[0].nodePort`] },
  { key: 'service.ports.tools.nodePort without NodePort', set: t({ service: { ports: { tools: { nodePort: 30084 } } } }), changes: [] },
  {
    key: 'service.ports.tools.port',
    set: t({ service: { ports: { tools: { port: 80 } } } }),
    changes: [`${SVC}:spec.ports[0].port`, `${RMCP}:spec.url`],
    check: (d) => expect(obj(d, 'RemoteMCPServer', 'agentplat-tool-server').spec.url).toBe('http://agentplat-tools.agentplat:80/mcp'),
  },
  {
    key: 'service.ports.tools.targetPort',
    set: t({ service: { ports: { tools: { targetPort: 9084 } } } }),
    changes: [`${SVC}:spec.ports[0].targetPort`, `${C}.args[1]`, `${C}.ports[0].containerPort`],
  },
  { key: 'imagePullSecrets', set: t({ imagePullSecrets: [{ name: 'mirror-pull' }] }), changes: [`${POD}.imagePullSecrets`] },
  { key: 'podAnnotations', set: t({ podAnnotations: { 'example.com/team': 'sre' } }), changes: [`${DEP}:spec.template.metadata.annotations`] },
  { key: 'affinity', set: t({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['tools'] }] }] } } } }), changes: [`${POD}.affinity`] },
  {
    key: 'topologySpreadConstraints',
    set: t({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' }] }),
    changes: [`${POD}.topologySpreadConstraints`],
    check: (d) => expect(obj(d, 'Deployment', 'agentplat-tools').spec.template.spec.topologySpreadConstraints[0].labelSelector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'agentplat-tools', 'app.kubernetes.io/instance': 'agentplat' } }),
  },
  {
    key: 'useDefaultServiceAccount',
    set: t({ useDefaultServiceAccount: true }),
    changes: ['-ServiceAccount/agentplat-tools', ...ADMIN.map((x) => `-${x}`), `${POD}.serviceAccountName`],
    check: (d) => expect(obj(d, 'Deployment', 'agentplat-tools').spec.template.spec.serviceAccountName).toBe('default'),
  },
  { key: 'rbac.create', set: t({ rbac: { create: false } }), changes: ADMIN.map((x) => `-${x}`) },
  {
    key: 'rbac.namespaces',
    set: t({ rbac: { namespaces: ['team-a', 'agentplat'] } }),
    changes: [...ADMIN.map((x) => `-${x}`), '+Role/agentplat-tools-cluster-admin-role', '+RoleBinding/agentplat-tools-cluster-admin-rolebinding', '+Role/agentplat-tools-cluster-admin-role@team-a', '+RoleBinding/agentplat-tools-cluster-admin-rolebinding@team-a'],
    // namespaced: no non-resource rule; the binding's subject stays in the tools namespace.
    check: (d) => {
      expect(obj(d, 'Role', 'agentplat-tools-cluster-admin-role', 'team-a').rules).toEqual([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
      expect(obj(d, 'RoleBinding', 'agentplat-tools-cluster-admin-rolebinding', 'team-a').subjects).toEqual([{ kind: 'ServiceAccount', name: 'agentplat-tools', namespace: 'agentplat' }]);
    },
  },
  {
    key: 'rbac.readOnly',
    set: t({ rbac: { readOnly: true } }),
    changes: [...ADMIN.map((x) => `-${x}`), ...READ.map((x) => `+${x}`)],
    check: (d) => {
      const rules = obj(d, 'ClusterRole', 'agentplat-tools-read-role').rules as { resources: string[]; verbs: string[] }[];
      expect(rules.flatMap((r) => r.verbs).every((v) => ['get', 'list', 'watch'].includes(v))).toBe(true);
      expect(rules.some((r) => r.resources.includes('secrets'))).toBe(false);
    },
  },
  { key: 'rbac.allowSecrets', base: t({ rbac: { readOnly: true } }), set: t({ rbac: { allowSecrets: true } }), changes: [`${READ[0]}:rules[7]`], check: (d) => expect(obj(d, 'ClusterRole', 'agentplat-tools-read-role').rules[7]).toEqual({ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }) },
  { key: 'rbac.additionalRules', base: t({ rbac: { readOnly: true } }), set: t({ rbac: { additionalRules: [{ apiGroups: ['argoproj.io'], resources: ['rollouts'], verbs: ['get', 'list'] }] } }), changes: [`${READ[0]}:rules[7]`] },
  { key: 'otel.tracing.enabled', set: t({ otel: { tracing: { enabled: true } } }), changes: [`${C}.env[3].value`], check: (d) => expect(env(d, 'OTEL_TRACING_ENABLED')).toBe('true') },
  { key: 'otel.tracing.exporter.otlp.endpoint', set: t({ otel: { tracing: { exporter: { otlp: { endpoint: 'http://otel-collector.observability:4317' } } } } }), changes: [`${C}.env[4].value`], check: (d) => expect(env(d, 'OTEL_EXPORTER_OTLP_ENDPOINT')).toBe('http://otel-collector.observability:4317') },
  { key: 'otel.tracing.exporter.otlp.timeout', set: t({ otel: { tracing: { exporter: { otlp: { timeout: 30 } } } } }), changes: [`${C}.env[5].value`], check: (d) => expect(env(d, 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT')).toBe('30') },
  { key: 'otel.tracing.exporter.otlp.insecure', set: t({ otel: { tracing: { exporter: { otlp: { insecure: false } } } } }), changes: [`${C}.env[6].value`], check: (d) => expect(env(d, 'OTEL_EXPORTER_OTLP_TRACES_INSECURE')).toBe('false') },
  {
    key: 'namespaceOverride',
    set: t({ namespaceOverride: 'tools' }),
    changes: [
      ...['Deployment/agentplat-tools', 'Service/agentplat-tools', 'Service/agentplat-tools-metrics', 'ServiceAccount/agentplat-tools'].flatMap((x) => [`-${x}`, `+${x}@tools`]),
      `${ADMIN[1]}:subjects[0].namespace`,
      `${RMCP}:spec.url`,
    ],
    check: (d) => expect(obj(d, 'RemoteMCPServer', 'agentplat-tool-server').spec.url).toBe('http://agentplat-tools.tools:8084/mcp'),
  },
];

describe('agentplat-tools-surface: each key of the tools chart changes exactly its objects and fields', () => {
  surfaceCases(CASES, ['A', 'B']);
});

describe('agentplat-tools-surface: values the cluster would refuse or that do nothing are linted at file:line:column', () => {
  it('values/subchart-rbac-namespace: rbac.namespaces without the namespace the tools server runs in is an error', () => {
    const text = 'agentplat-tools:\n  rbac:\n    namespaces: [team-a]\n';
    const ps = lintText('B', text, { releaseNamespace: 'agentplat' }).filter((p) => p.rule === 'values/subchart-rbac-namespace');
    expect(where(ps)).toEqual(['values/subchart-rbac-namespace values.yaml:3:5 error']);
    expect(ps[0]!.message).toContain('"agentplat"');
    expect(lintText('B', 'agentplat-tools:\n  rbac:\n    namespaces: [team-a, agentplat]\n', { releaseNamespace: 'agentplat' }).filter((p) => p.severity === 'error')).toEqual([]);
    // the sub-chart's own namespaceOverride is where it runs
    const moved = lintText('A', 'agentplat-tools:\n  namespaceOverride: tools\n  rbac:\n    namespaces: [agentplat]\n', { releaseNamespace: 'agentplat' });
    expect(moved.filter((p) => p.rule === 'values/subchart-rbac-namespace').map((p) => p.message)).toEqual([expect.stringContaining('"tools" (agentplat-tools.namespaceOverride)')]);
  });

  it('values/tools-service-monitor-needs-api: a ServiceMonitor without the monitoring API is a warning', () => {
    const text = 'agentplat-tools:\n  tools:\n    metrics:\n      servicemonitor:\n        enabled: true\n';
    expect(where(lintText('A', text, { apiVersions: [] }).filter((p) => p.rule === 'values/tools-service-monitor-needs-api'))).toEqual(['values/tools-service-monitor-needs-api values.yaml:5:9 warning']);
    expect(lintText('A', text, { apiVersions: ['monitoring.coreos.com/v1'] }).filter((p) => p.rule === 'values/tools-service-monitor-needs-api')).toEqual([]);
  });

  it('values/tools-rbac-read-only-only: allowSecrets and additionalRules without readOnly are warnings', () => {
    const text = 'agentplat-tools:\n  rbac:\n    allowSecrets: true\n';
    expect(where(lintText('A', text).filter((p) => p.rule === 'values/tools-rbac-read-only-only'))).toEqual(['values/tools-rbac-read-only-only values.yaml:3:5 warning']);
    expect(lintText('A', 'agentplat-tools:\n  rbac:\n    readOnly: true\n    allowSecrets: true\n').filter((p) => p.rule === 'values/tools-rbac-read-only-only')).toEqual([]);
  });

  it('values/tools-image-alias: the same image part set differently under image and tools.image is a warning', () => {
    const text = 'agentplat-tools:\n  image:\n    tag: v1\n  tools:\n    image:\n      tag: v2\n';
    expect(where(lintText('B', text).filter((p) => p.rule === 'values/tools-image-alias'))).toEqual(['values/tools-image-alias values.yaml:3:5 warning']);
  });

  it('a misspelt tools key stays an unknown-key error with a did-you-mean', () => {
    const ps = lintText('A', 'agentplat-tools:\n  tools:\n    enabledToolz: [k8s]\n').filter((p) => p.rule === 'values/unknown-key');
    expect(where(ps)).toEqual(['values/unknown-key values.yaml:3:5 error']);
    expect(ps[0]!.hint).toContain('enabledTools');
  });
});

describe('subchart-surface-migrate: migrate A → B keeps the tools, operator and dashboards keys', () => {
  it('the keys survive unchanged, re-lint clean in B, and no change is reported for them', async () => {
    const text = [
      'agentplat-tools:',
      '  tools:',
      '    enabledTools: [k8s, helm]',
      '  otel:',
      '    tracing:',
      '      enabled: true',
      'mcpop:',
      '  controller:',
      '    replicaCount: 2',
      'dashboards-mcp:',
      '  grafana:',
      '    secretRef: dashboards-credentials',
      '',
    ].join('\n');
    const r = await migrateValues(text, 'values.yaml', 'A', 'B');
    expect(r.changes).toEqual([]);
    expect(parse(r.text!)).toEqual(parse(text));
    expect(r.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });
});
