// The dashboards MCP server's container security context, once for the renderer
// (render/subcharts/dashboards-mcp.ts) and the lint's rebuilt pod (lint/security-surfaces.ts), so
// lint checks the context the render writes.

import { coalesceValues, isPlainMap, type Values } from '../values/merge.ts';

/** The user and group the server's image runs as (the pinned sub-chart's default securityContext). */
export const DASHBOARDS_MCP_SECURITY_BASELINE = { runAsUser: 1000, runAsGroup: 999 } as const;

/**
 * The container security context: the top-level `securityContext` over the image's user and
 * group, and the block's own `dashboards-mcp.securityContext` coalesced over that, key by key as
 * Helm coalesces a user map over a sub-chart's defaults: a partial map (`runAsUser` alone) keeps
 * every other default setting, and a key set to null removes one.
 */
export function dashboardsMcpSecurityContext(top: unknown, own: unknown): Values {
  const defaults: Values = { ...DASHBOARDS_MCP_SECURITY_BASELINE, ...(isPlainMap(top) ? top : {}) };
  return isPlainMap(own) && Object.keys(own).length > 0 ? coalesceValues(own, defaults) : defaults;
}
