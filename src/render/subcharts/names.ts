// Names that cross the line between the main chart and the sub-charts. Every reference from
// one object to another is computed here from the release (decisions.md), never fixed to the
// default release name, so the main chart and the sub-charts agree for any release.

import type { RenderContext } from '../context.ts';
import { dnsTrunc } from '../context.ts';
import { block, conventionalFullname, overrideFullname, subchartNamespace } from './common.ts';

/** Fullname of the tools server sub-chart (`<release>-tools` by default); its Service has this name. */
export function toolsFullname(ctx: RenderContext): string {
  return overrideFullname(ctx.release.name, block(ctx, 'agentplat-tools'));
}

/** Namespace of the tools server's objects. */
export function toolsNamespace(ctx: RenderContext): string {
  return subchartNamespace(ctx, block(ctx, 'agentplat-tools'));
}

/** The tools server's MCP port (fixed by the image's `--port` flag as the sub-chart passes it). */
export const TOOLS_HTTP_PORT = 8084;

/** MCP URL of the tools server, for the main chart's RemoteMCPServer. */
export function toolsMcpUrl(ctx: RenderContext): string {
  return `http://${toolsFullname(ctx)}.${toolsNamespace(ctx)}:${TOOLS_HTTP_PORT}/mcp`;
}

/** The main chart's RemoteMCPServer that registers the tools server (bundled agents point at it). */
export function toolServerName(ctx: RenderContext): string {
  return dnsTrunc(`${ctx.fullname}-tool-server`);
}

/** The main chart's built-in prompts ConfigMap (bundled agents read prompt fragments from it). */
export function builtinPromptsName(ctx: RenderContext): string {
  return dnsTrunc(`${ctx.fullname}-builtin-prompts`);
}

/** The ModelConfig the main chart generates from `providers.default`. */
export const DEFAULT_MODEL_CONFIG = 'default-model-config';

/** Fullname of the dashboards MCP sub-chart (`<release>-dashboards-mcp`); also its RemoteMCPServer's name. */
export function dashboardsMcpFullname(ctx: RenderContext): string {
  return conventionalFullname(ctx.release.name, 'dashboards-mcp', block(ctx, 'dashboards-mcp'));
}

/** Fullname of the authentication proxy sub-chart (`<release>-authproxy`). */
export function authproxyFullname(ctx: RenderContext): string {
  return conventionalFullname(ctx.release.name, 'authproxy', block(ctx, 'authproxy'));
}

/** The main-chart ConfigMap holding the proxy's sign-in templates. */
export function authproxyTemplatesName(ctx: RenderContext): string {
  return dnsTrunc(`${ctx.fullname}-authproxy-templates`);
}
