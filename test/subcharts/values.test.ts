// Spec 2.11 rows of the tools server, dashboards MCP, mcpop and the bundled agents take effect.
import { describe, expect, it } from 'vitest';
import { find, render } from './helpers.ts';
import { readFileSync } from 'node:fs';
import { lintValues } from '../../src/lint/lint.ts';
import { parseValuesText } from '../../src/values/source.ts';

describe('agentplat-tools (2.11)', () => {
  it('resources, replicaCount, nodeSelector, tolerations, tools.loglevel and tools.metrics.port reach the pod', () => {
    const docs = render('A', {
      'agentplat-tools': { replicaCount: 2, nodeSelector: { pool: 'tools' }, tolerations: [{ key: 'x', operator: 'Exists' }], tools: { loglevel: 'warn', metrics: { port: 9095 } } },
    });
    const dep = find(docs, 'Deployment', 'agentplat-tools');
    const pod = dep.spec.template.spec;
    const c = pod.containers[0];
    expect(dep.spec.replicas).toBe(2);
    expect(pod.nodeSelector).toEqual({ pool: 'tools' });
    expect(pod.tolerations).toEqual([{ key: 'x', operator: 'Exists' }]);
    expect(c.resources).toEqual({ limits: { memory: '256Mi' }, requests: { cpu: '50m', memory: '128Mi' } });
    expect(c.env).toContainEqual({ name: 'LOG_LEVEL', value: 'warn' });
    expect(c.args).toEqual(['--port', '8084', '--metrics-port', '9095']);
    expect(find(docs, 'Service', 'agentplat-tools-metrics').spec.ports[0].port).toBe(9095);
  });

  it('image tagged v<sub-chart version>: 0.2.1 in A, 0.3.0 in B; metrics port 8085 by default', () => {
    const a = find(render('A'), 'Deployment', 'agentplat-tools').spec.template.spec.containers[0];
    expect(a.image).toBe('ghcr.io/agentplat/tools:v0.2.1');
    expect(a.args).toEqual(['--port', '8084', '--metrics-port', '8085']);
    expect(find(render('B'), 'Deployment', 'agentplat-tools').spec.template.spec.containers[0].image).toBe('ghcr.io/agentplat/tools:v0.3.0');
  });
});

describe('dashboards-mcp (2.11, 5.7)', () => {
  it('grafana.url reaches the ConfigMap evaluated for the release; the token only in the Secret, base64', () => {
    const docs = render('B', { 'dashboards-mcp': { grafana: { serviceAccountToken: 'glsa_TOKENVALUE' } } }, { namespace: 'obs' });
    expect(find(docs, 'ConfigMap', 'agentplat-dashboards-mcp').data).toEqual({ GRAFANA_URL: 'http://dashboards.obs.svc:3000/api' });
    expect(find(docs, 'Secret', 'agentplat-dashboards-mcp').data).toEqual({ GRAFANA_SERVICE_ACCOUNT_TOKEN: Buffer.from('glsa_TOKENVALUE').toString('base64') });
    const others = docs.filter((d) => d.object.kind !== 'Secret');
    expect(JSON.stringify(others.map((d) => d.object))).not.toContain('glsa_TOKENVALUE');
    const c = find(docs, 'Deployment', 'agentplat-dashboards-mcp').spec.template.spec.containers[0];
    expect(c.resources).toEqual({ limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '100m', memory: '128Mi' } });
    expect(c.image).toMatch(/^docker\.io\/grafana\/mcp-grafana:\d+\.\d+\.\d+$/);
    expect(find(docs, 'RemoteMCPServer', 'agentplat-dashboards-mcp').spec.url).toBe('http://agentplat-dashboards-mcp.obs:8000/mcp');
  });
});

describe('dashboards-mcp-token-secret (5.7)', () => {
  it('dashboards-mcp-token-secret: grafana.serviceAccountToken is a secret value: schema-flagged, only in the Secret the server reads, hidden in lint output', () => {
    for (const rev of ['A', 'B'] as const) {
      const schema = JSON.parse(readFileSync(new URL(`../../schemas/values-${rev.toLowerCase()}.schema.json`, import.meta.url), 'utf8'));
      expect(schema.properties['dashboards-mcp'].properties.grafana.properties.serviceAccountToken['x-agentplat-secret'], rev).toBe(true);
      const docs = render(rev, { 'dashboards-mcp': { grafana: { serviceAccountToken: 'glsa_SECRET_TOKEN' } } });
      const secret = find(docs, 'Secret', 'agentplat-dashboards-mcp');
      expect(Buffer.from(secret.data.GRAFANA_SERVICE_ACCOUNT_TOKEN, 'base64').toString(), rev).toBe('glsa_SECRET_TOKEN');
      const c = find(docs, 'Deployment', 'agentplat-dashboards-mcp').spec.template.spec.containers[0];
      expect(c.envFrom, rev).toContainEqual({ secretRef: { name: 'agentplat-dashboards-mcp' } });
      expect(JSON.stringify(docs.filter((d) => d.object.kind !== 'Secret').map((d) => d.object)), rev).not.toContain('glsa_SECRET_TOKEN');
      const parsed = parseValuesText('dashboards-mcp:\n  grafana:\n    serviceAccountToken: 123456789\n', 'token.yaml');
      const problems = lintValues({ revision: rev, layers: [parsed.source!] }).problems;
      const hit = problems.find((p) => p.path === 'dashboards-mcp.grafana.serviceAccountToken');
      expect(hit, rev).toBeDefined();
      expect(JSON.stringify(problems), rev).not.toContain('123456789');
    }
  });
});

describe('mcpop (2.11)', () => {
  it('nameOverride mcpop names objects <release>-mcpop-…; fullnameOverride and namespaceOverride move them', () => {
    expect(find(render('A', {}, { release: 'prod' }), 'Deployment', 'prod-mcpop-controller-manager').spec.template.spec.containers[0].image).toBe('ghcr.io/agentplat/mcpop:v0.3.0');
    const docs = render('B', { mcpop: { fullnameOverride: 'op', namespaceOverride: 'operators' } });
    const dep = find(docs, 'Deployment', 'op-controller-manager');
    expect(dep.metadata.namespace).toBe('operators');
    expect(find(docs, 'ClusterRoleBinding', 'op-manager-rolebinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'op-controller-manager', namespace: 'operators' }]);
  });
});

describe('bundled agents (2.11, revision A)', () => {
  it('references follow the release: tool server, built-in prompts and dashboards MCP of release prod', () => {
    const agent = find(render('A', {}, { release: 'prod' }), 'Agent', 'observability-agent');
    const d = agent.spec.declarative;
    expect(d.promptTemplate.dataSources).toEqual([{ kind: 'ConfigMap', name: 'prod-builtin-prompts', alias: 'builtin' }]);
    expect(d.tools.map((t: any) => t.mcpServer?.name ?? t.agent.name)).toEqual(['prod-tool-server', 'prod-dashboards-mcp', 'query-language-agent']);
    expect(d.deployment.resources).toEqual({ limits: { cpu: '1000m', memory: '256Mi' }, requests: { cpu: '50m', memory: '128Mi' } });
  });

  it('modelConfigRef falls back to default-model-config; memory.modelConfigRef to the agent model config, then the default', () => {
    const docs = render('A', {
      'cluster-agent': { modelConfigRef: 'fast', memory: { enabled: true } },
      'gateway-agent': { memory: { enabled: true, ttlDays: 30 } },
      'rollouts-agent': { memory: { enabled: true, modelConfigRef: 'embeddings' } },
    });
    expect(find(docs, 'Agent', 'cluster-agent').spec.declarative).toMatchObject({ modelConfig: 'fast', memory: { modelConfig: 'fast', ttlDays: 15 } });
    expect(find(docs, 'Agent', 'gateway-agent').spec.declarative).toMatchObject({ modelConfig: 'default-model-config', memory: { modelConfig: 'default-model-config', ttlDays: 30 } });
    expect(find(docs, 'Agent', 'rollouts-agent').spec.declarative.memory).toEqual({ modelConfig: 'embeddings', ttlDays: 15 });
    expect(find(docs, 'Agent', 'package-manager-agent').spec.declarative.memory).toBeUndefined();
  });

  it('a disabled target is never referenced: no dashboards MCP or query-language tool when they are off', () => {
    const d = find(render('A', { 'dashboards-mcp': { enabled: false }, 'query-language-agent': { enabled: false } }), 'Agent', 'observability-agent').spec.declarative;
    expect(d.tools.map((t: any) => t.mcpServer?.name ?? t.agent.name)).toEqual(['agentplat-tool-server']);
  });
});
