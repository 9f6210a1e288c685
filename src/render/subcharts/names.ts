// Names that cross the line between the main chart and the sub-charts. Every reference from
// one object to another is computed here from the release (decisions.md), never fixed to the
// default release name, so the main chart and the sub-charts agree for any release.

import type { RenderContext } from '../../model/context.ts';
import { authproxyTemplatesName, builtinPromptsName, DEFAULT_MODEL_CONFIG_NAME, toolServerName, toolsFullname } from '../chart.ts';
import { dnsTrunc } from '../../model/context.ts';
import { at } from '../../model/values-access.ts';
import { block, conventionalFullname, subchartNamespace } from './common.ts';

// The main chart's helpers own these names; re-exported so sub-chart code has one import.
export { authproxyTemplatesName, builtinPromptsName, toolServerName, toolsFullname };
export const DEFAULT_MODEL_CONFIG = DEFAULT_MODEL_CONFIG_NAME;

/** Namespace of the tools server's objects. */
export function toolsNamespace(ctx: RenderContext): string {
  return subchartNamespace(ctx, block(ctx, 'agentplat-tools'));
}

/** The tools server's default MCP port (its Service port and the `--port` it is given). */
export const TOOLS_HTTP_PORT = 8084;

/** Port of the tools server's Service: `agentplat-tools.service.ports.tools.port`, else 8084. */
export function toolsServicePort(ctx: RenderContext): number {
  const p = at(ctx.values, 'agentplat-tools.service.ports.tools.port');
  return typeof p === 'number' ? p : TOOLS_HTTP_PORT;
}

/**
 * MCP URL of the tools server, for the main chart's RemoteMCPServer. It follows the Service port
 * (the tools chart's parent kept 8084 fixed; decisions.md: references are computed).
 */
export function toolsMcpUrl(ctx: RenderContext): string {
  return `http://${toolsFullname(ctx)}.${toolsNamespace(ctx)}:${toolsServicePort(ctx)}/mcp`;
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
