// The sub-charts of the chart, each a Component gated by its `enabled` key. The render pipeline
// orders the objects; the order here only keeps related components together.
import type { Component } from '../../model/context.ts';
import { authproxyComponent } from './authproxy.ts';
import { mcpopComponent } from './mcpop.ts';
import { toolsComponent } from './tools.ts';
import { dashboardsMcpComponent } from './dashboards-mcp.ts';
import { substrateComponent } from './substrate.ts';
import { AGENT_COMPONENTS } from './agents.ts';

export const SUBCHART_COMPONENTS: readonly Component[] = [
  authproxyComponent,
  mcpopComponent,
  toolsComponent,
  dashboardsMcpComponent,
  substrateComponent,
  ...AGENT_COMPONENTS,
];

export {
  toolsFullname,
  toolsNamespace,
  toolsMcpUrl,
  toolServerName,
  TOOLS_HTTP_PORT,
  builtinPromptsName,
  DEFAULT_MODEL_CONFIG,
  dashboardsMcpFullname,
  authproxyFullname,
  authproxyTemplatesName,
} from './names.ts';
export { BUNDLED_AGENT_KEYS } from './agents.ts';
