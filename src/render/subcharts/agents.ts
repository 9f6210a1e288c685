// The ten bundled agents of revision A (`<area>-agent.*`, each on by default): one Agent each,
// named `<area>-agent` (or the block's name overrides), in the chart namespace. Every reference is computed from the release:
// the tool server and dashboards MCP RemoteMCPServers, the built-in prompts ConfigMap and the
// query-language agent. A reference is left out when its target is disabled, so an Agent never
// points at an object the release does not create. Revision B has no bundled agents.

import { dnsTrunc, type Component, type RenderContext } from '../../model/context.ts';
import { block, enabled } from './common.ts';
import { asList, asMap, asStr } from '../../model/values-access.ts';
import { subchartDocs, subchartLabels } from './workload.ts';
import { BUNDLED_AGENTS, systemMessage, type BundledAgentDef } from './agents-catalog.ts';
import { builtinPromptsName, dashboardsMcpFullname, DEFAULT_MODEL_CONFIG, toolServerName } from './names.ts';

/** Values keys of the bundled agents (revision A only). */
export const BUNDLED_AGENT_KEYS: readonly string[] = BUNDLED_AGENTS.map((a) => `${a.area}-agent`);

const API_GROUP = 'agentplat.dev';

function agentTools(ctx: RenderContext, def: BundledAgentDef): unknown[] {
  const tools: unknown[] = [];
  if (def.tools.length > 0 && enabled(ctx, 'agentplat-tools')) {
    tools.push({ type: 'McpServer', mcpServer: { kind: 'RemoteMCPServer', apiGroup: API_GROUP, name: toolServerName(ctx), toolNames: def.tools } });
  }
  if (def.dashboardsTools && enabled(ctx, 'dashboards-mcp')) {
    tools.push({ type: 'McpServer', mcpServer: { kind: 'RemoteMCPServer', apiGroup: API_GROUP, name: dashboardsMcpFullname(ctx), toolNames: def.dashboardsTools } });
  }
  for (const area of def.agentTools ?? []) {
    if (enabled(ctx, `${area}-agent`)) tools.push({ type: 'Agent', agent: { kind: 'Agent', apiGroup: API_GROUP, name: agentName(ctx, `${area}-agent`) } });
  }
  return tools;
}

/**
 * The Agent CRD types quantities as int-or-string, so a fractional number (`memory: 0.5`, which
 * the values schema accepts as a quantity) is written as its decimal text; integers stay numbers.
 */
function intOrStringQuantities(resources: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(resources)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([r, q]) => [r, typeof q === 'number' && !Number.isInteger(q) ? String(q) : q]));
    } else out[k] = v;
  }
  return out;
}

/**
 * Name of a bundled agent's Agent: the block's fullnameOverride, else its nameOverride, else
 * `<area>-agent` (the agents are named after their area, not after the release).
 */
export function agentName(ctx: RenderContext, key: string): string {
  const b = block(ctx, key);
  return dnsTrunc(asStr(b.fullnameOverride) || asStr(b.nameOverride) || key);
}

function agentComponent(def: BundledAgentDef): Component {
  const key = `${def.area}-agent`;
  return {
    id: key,
    render(ctx) {
      if (!ctx.model.bundledAgents || !enabled(ctx, key)) return [];
      const b = block(ctx, key);
      const modelConfig = asStr(b.modelConfigRef) || DEFAULT_MODEL_CONFIG;
      const memory = asMap(b.memory);
      const ttl = typeof memory.ttlDays === 'number' && memory.ttlDays > 0 ? memory.ttlDays : 15;
      // The agent charts' order: pull secrets, pod and container security contexts, env, scheduling, resources.
      const deployment: Record<string, unknown> = {};
      const own = asList(b.imagePullSecrets);
      const secrets = own.length > 0 ? ctx.model.images.pullSecrets(own) : ctx.model.images.pullSecrets();
      if (secrets.length > 0) deployment.imagePullSecrets = secrets;
      for (const k of ['podSecurityContext', 'securityContext'] as const) {
        const m = asMap(b[k]);
        if (Object.keys(m).length > 0) deployment[k] = m;
      }
      const env = asList(b.env);
      if (env.length > 0) deployment.env = env;
      // The scheduling keys the agent charts honour, for admission policies that require them.
      const nodeSelector = asMap(b.nodeSelector);
      if (Object.keys(nodeSelector).length > 0) deployment.nodeSelector = nodeSelector;
      if (Array.isArray(b.tolerations) && b.tolerations.length > 0) deployment.tolerations = b.tolerations;
      deployment.resources = intOrStringQuantities(asMap(b.resources));
      const view = {
        name: agentName(ctx, key),
        namespace: ctx.namespace,
        labels: subchartLabels(ctx, { name: asStr(b.nameOverride) || key, chart: key, chartVersion: ctx.chart.version, trailing: { 'app.kubernetes.io/part-of': 'agentplat' } }).labels,
        description: def.description,
        runtime: asStr(b.runtime) || 'go',
        // Copied as given; the Agent CRD's schema checks it (lint validates rendered Agents).
        context: Object.keys(asMap(b.compaction)).length > 0 ? { compaction: asMap(b.compaction) } : null,
        systemMessage: systemMessage(def),
        dataSources: [{ kind: 'ConfigMap', name: builtinPromptsName(ctx), alias: 'builtin' }],
        modelConfig,
        memory:
          memory.enabled === true
            ? { modelConfig: asStr(memory.modelConfigRef) || modelConfig, ttlDays: ttl }
            : null,
        tools: agentTools(ctx, def),
        skills: def.skills,
        deployment,
      };
      return subchartDocs(key, [['agent.yaml', 'agents/agent.yaml.hbs']], view);
    },
  };
}

export const AGENT_COMPONENTS: readonly Component[] = BUNDLED_AGENTS.map(agentComponent);
