// Names that cross the line between the main chart and the sub-charts. Every reference from
// one object to another is computed here from the release (decisions.md), never fixed to the
// default release name, so the main chart and the sub-charts agree for any release.

import type { RenderContext } from '../../model/context.ts';
import { authproxyTemplatesName, builtinPromptsName, DEFAULT_MODEL_CONFIG_NAME, toolServerName, toolsFullname } from '../chart.ts';
import { dnsTrunc } from '../../model/context.ts';
import { block, conventionalFullname, subchartNamespace } from './common.ts';

// The main chart's helpers own these names; re-exported so sub-chart code has one import.
export { authproxyTemplatesName, builtinPromptsName, toolServerName, toolsFullname };
export const DEFAULT_MODEL_CONFIG = DEFAULT_MODEL_CONFIG_NAME;

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

/** Fullname of the dashboards MCP sub-chart (`<release>-dashboards-mcp`); also its RemoteMCPServer's name. */
export function dashboardsMcpFullname(ctx: RenderContext): string {
  return conventionalFullname(ctx.release.name, 'dashboards-mcp', block(ctx, 'dashboards-mcp'));
}

/** Fullname of the authentication proxy sub-chart (`<release>-authproxy`). */
export function authproxyFullname(ctx: RenderContext): string {
  return conventionalFullname(ctx.release.name, 'authproxy', block(ctx, 'authproxy'));
}


/** Fullname of the substrate sub-chart (`<release>-substrate`, or the release when it contains the word). */
export function substrateFullname(ctx: RenderContext): string {
  return conventionalFullname(ctx.release.name, 'substrate', block(ctx, 'substrate'));
}

/**
 * The bundled substrate API server's ServiceAccount (`<substrate fullname>-api-server` in the
 * substrate sub-chart's namespace): the sub-chart creates it, and the main chart's env-source
 * RoleBindings bind it when substrate.enabled.
 */
export function substrateApiServerAccount(ctx: RenderContext): { name: string; namespace: string } {
  return { name: dnsTrunc(`${substrateFullname(ctx)}-api-server`), namespace: subchartNamespace(ctx, block(ctx, 'substrate')) };
}
