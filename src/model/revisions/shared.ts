// What the two revision adapters compute alike: the scope from a list of role namespaces, and
// the environment entries of one agent image.

import type { Values } from '../../values/merge.ts';
import type { ImagePolicy, ScopeModel } from '../revision-model.ts';
import { firstOf, list, scalarText, str, unique } from '../values-access.ts';

/** Non-empty entries as text, first occurrence kept. */
export function stringList(xs: readonly unknown[]): string[] {
  return unique(xs.map(scalarText).filter((s) => s !== ''));
}

export function scope(
  values: Values,
  roles: { namespaces: string[]; from: ScopeModel['roleNamespacesFrom'] },
  rest: Pick<ScopeModel, 'globalWatchNamespaces' | 'watchOutsideRoles'> & { subchartsScoped: boolean },
): ScopeModel {
  const own = stringList(list(values, 'controller.watchNamespaces'));
  return {
    roleNamespaces: roles.namespaces,
    roleNamespacesFrom: roles.from,
    globalWatchNamespaces: rest.globalWatchNamespaces,
    watchNamespaces: own.length > 0 ? own : roles.namespaces,
    watchOutsideRoles: rest.watchOutsideRoles,
    subchartRoleNamespaces: rest.subchartsScoped ? [...new Set(roles.namespaces)].sort() : [],
  };
}

/**
 * `<prefix>REGISTRY`, `REPOSITORY`, `TAG` (and `PULL_POLICY` when the revision sends it) of an
 * image the controller puts on agent pods: the component tag wins over the top-level `tag` here.
 */
export function agentImageEnv(values: Values, images: ImagePolicy, chartVersion: string, path: string, prefix: string, withPolicy: boolean): Record<string, string> {
  const d: Record<string, string> = {};
  if (withPolicy) d[`${prefix}PULL_POLICY`] = images.pullPolicy(str(values, `${path}.pullPolicy`));
  d[`${prefix}REGISTRY`] = images.registry(str(values, `${path}.registry`), str(values, 'registry'), 'ghcr.io');
  d[`${prefix}REPOSITORY`] = str(values, `${path}.repository`);
  d[`${prefix}TAG`] = firstOf(str(values, `${path}.tag`), str(values, 'tag'), chartVersion);
  return d;
}

/** Defaults of the substrate API server account the chart grants env-source access to. */
export const SUBSTRATE_API_SERVER = { namespace: 'substrate-system', serviceAccount: 'substrate-api-server' } as const;
