// Role scope of the sub-charts that hold cluster permissions (mcpop's manager role, the tools
// server's role). [B] global-watch-namespaces-scope: a namespace-scoped install (the main
// chart's role namespaces: rbac.namespaces when present, else global.watchNamespaces) has no
// cluster-wide role of these sub-charts either, only one Role + RoleBinding per namespace.
// Revision A keeps them cluster-wide: its rbac.namespaces is the main chart's key only.

import type { RenderContext } from '../../model/context.ts';
import { asList, asStr, at, unique } from '../../model/values-access.ts';

/** The namespaces (de-duplicated, sorted) the sub-charts' roles are limited to; empty: cluster-wide. */
export function subchartRoleScope(ctx: RenderContext): string[] {
  return ctx.model.scope.subchartRoleNamespaces;
}

/**
 * The namespaces one sub-chart's roles are limited to: its own `<chart>.rbac.namespaces` when
 * non-empty (unique, sorted, as the tools and operator charts write them), else the install's scope.
 */
export function ownRoleScope(ctx: RenderContext, chart: string): string[] {
  const own = asList(at(ctx.values, `${chart}.rbac.namespaces`)).map((n) => asStr(n)).filter(Boolean);
  return own.length > 0 ? unique(own).sort() : subchartRoleScope(ctx);
}

export interface RoleScope {
  roleKind: 'ClusterRole' | 'Role';
  bindingKind: 'ClusterRoleBinding' | 'RoleBinding';
  namespace: string | null;
}

/** One cluster-wide role pair when `scoped` is empty, else one namespaced pair per namespace. */
export function roleScopes(scoped: readonly string[]): RoleScope[] {
  return scoped.length === 0
    ? [{ roleKind: 'ClusterRole', bindingKind: 'ClusterRoleBinding', namespace: null }]
    : scoped.map((ns) => ({ roleKind: 'Role', bindingKind: 'RoleBinding', namespace: ns }));
}
