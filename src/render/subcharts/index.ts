// The sub-charts of the chart, each a Component gated by its `enabled` key, plus the main-chart
// objects that exist only for a sub-chart's sake (substrate integration). The render pipeline
// orders the objects; the order here only keeps related components together.
import type { Component } from '../context.ts';
import { authproxyComponent } from './authproxy.ts';
import { mcpopComponent } from './mcpop.ts';
import { toolsComponent } from './tools.ts';
import { dashboardsMcpComponent } from './dashboards-mcp.ts';
import { substrateComponent, substrateIntegrationComponent } from './substrate.ts';
import { AGENT_COMPONENTS } from './agents.ts';

export const SUBCHART_COMPONENTS: readonly Component[] = [
  authproxyComponent,
  mcpopComponent,
  toolsComponent,
  dashboardsMcpComponent,
  substrateComponent,
  substrateIntegrationComponent,
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
export { signInChecksum, SIGN_IN_TEMPLATE } from './authproxy-sign-in.ts';
export { BUNDLED_AGENT_KEYS } from './agents.ts';
