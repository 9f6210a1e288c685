// Rendered sub-chart objects that must agree with the reference facts (test/data/reference/
// subcharts-facts.md): the dashboard MCP tools the observability agent lists, the agents' default
// CPU limit, and the tools server's optional API-key Secret.
import { describe, expect, it } from 'vitest';
import { SUBCHARTS_FACTS } from '../data/spec.ts';
import { find, render } from './helpers.ts';

const FACTS = SUBCHARTS_FACTS;

/** The dashboard MCP tool names of the observability agent row of section 7.3. */
function referenceDashboardTools(): string[] {
  const row = FACTS.split('\n').find((l) => l.startsWith('| observability |'))!;
  const m = /\(2\) McpServer[^:]*: (.+?) \((\d+) names\)/.exec(row)!;
  const names = m[1]!.split(',').map((s) => s.trim());
  expect(names).toHaveLength(Number(m[2]));
  return names;
}

const agentTools = (docs: ReturnType<typeof render>, name: string) => find(docs, 'Agent', name).spec.declarative.tools as { type: string; mcpServer?: { name: string; toolNames: string[] } }[];

describe('observability-agent-dashboard-tools: the observability agent lists every tool the pinned dashboard MCP server serves', () => {
  it('the 34 tools of the reference, in its order, on the dashboards MCP server', () => {
    const tools = agentTools(render('A'), 'observability-agent');
    const dashboards = tools.find((t) => t.mcpServer?.name === 'agentplat-dashboards-mcp');
    expect(dashboards?.mcpServer?.toolNames).toEqual(referenceDashboardTools());
  });
  it('the metric and log query tools are among them', () => {
    const names = agentTools(render('A'), 'observability-agent').flatMap((t) => t.mcpServer?.toolNames ?? []);
    for (const tool of ['query_prometheus', 'query_loki_logs', 'list_prometheus_label_names', 'list_oncall_users', 'get_assertions', 'find_slow_requests', 'find_error_pattern_logs']) expect(names).toContain(tool);
  });
});

describe('agent-default-cpu-limit: the bundled agents keep the agent charts\' CPU limit of 1000m next to the values\' memory limit', () => {
  const resourcesOf = (docs: ReturnType<typeof render>, name: string) => find(docs, 'Agent', name).spec.declarative.deployment.resources;
  it('every bundled agent renders limits cpu 1000m and memory 256Mi, requests 50m and 128Mi', () => {
    const docs = render('A');
    const agents = docs.filter((d) => d.object.kind === 'Agent');
    expect(agents).toHaveLength(10);
    for (const a of agents) {
      expect(resourcesOf(docs, a.object.metadata.name), a.object.metadata.name).toEqual({ limits: { cpu: '1000m', memory: '256Mi' }, requests: { cpu: '50m', memory: '128Mi' } });
    }
  });
  it('the values win key by key', () => {
    expect(resourcesOf(render('A', { 'cluster-agent': { resources: { limits: { cpu: '2' } } } }), 'cluster-agent').limits).toEqual({ cpu: '2', memory: '256Mi' });
    expect(resourcesOf(render('A', { 'cluster-agent': { resources: { requests: { cpu: '10m' } } } }), 'cluster-agent').requests).toEqual({ cpu: '10m', memory: '128Mi' });
  });
  it('null removes the CPU limit, as it removes a sub-chart default in Helm', () => {
    expect(resourcesOf(render('A', { 'cluster-agent': { resources: { limits: { cpu: null } } } }), 'cluster-agent').limits).toEqual({ memory: '256Mi' });
  });
});

describe('tools-llm-api-key-secret: the tools server reads its LLM API key from an optional Secret', () => {
  for (const rev of ['A', 'B'] as const) {
    it(`[${rev}] PROVIDERB_API_KEY comes from the optional Secret <tools fullname>-providerb, which the chart does not create`, () => {
      const docs = render(rev);
      const env = find(docs, 'Deployment', 'agentplat-tools').spec.template.spec.containers[0].env as { name: string; valueFrom?: unknown }[];
      expect(env.find((e) => e.name === 'PROVIDERB_API_KEY')).toEqual({
        name: 'PROVIDERB_API_KEY',
        valueFrom: { secretKeyRef: { name: 'agentplat-tools-providerb', key: 'PROVIDERB_API_KEY', optional: true } },
      });
      expect(docs.some((d) => d.object.kind === 'Secret' && d.object.metadata.name === 'agentplat-tools-providerb')).toBe(false);
    });
  }
});
