// Namespace scope of the install: which namespaces get roles, and that the controller only
// watches namespaces it has roles in (a watched namespace without a role loops on Forbidden).
//   bad (B):  global.watchNamespaces: [team-a]   controller.watchNamespaces: [team-a, team-b]
//   good (B): global.watchNamespaces: [team-a, team-b]   controller.watchNamespaces: [team-b]
// The scope rule is revision B's (the values document marks it [B]); revision A lets
// controller.watchNamespaces win over rbac.namespaces, so there the same mismatch is a warning.

import type { ValuesRule } from './types.ts';
import { optMap, optStr, strings } from '../../model/values-access.ts';
import { revisionModel } from '../../model/revisions/index.ts';
import { assumedNamespaceNote, namespaceFix } from './release-namespace.ts';

export const scopeRules: ValuesRule = {
  ids: [
    { id: 'values/watch-scope', description: 'The controller may only watch namespaces that have its roles: an error in revision B (its scope rule), a warning in revision A, where controller.watchNamespaces wins over rbac.namespaces.' },
    { id: 'values/rbac-overrides-global', description: 'rbac.namespaces, when present, overrides global.watchNamespaces (revision B).' },
    { id: 'values/rbac-release-namespace', description: 'Namespaced roles must include the namespace the controller runs in (namespaceOverride, else the release namespace).' },
    { id: 'values/rbac-cluster-scoped-removed', description: 'rbac.clusterScoped was removed: leave rbac.namespaces empty for cluster scope or set it for namespaced roles.' },
  ],
  check(ctx) {
    const rbac = optMap(ctx.values, 'rbac');
    if (rbac && Object.prototype.hasOwnProperty.call(rbac, 'clusterScoped')) {
      ctx.report({
        rule: 'values/rbac-cluster-scoped-removed',
        severity: 'error',
        path: 'rbac.clusterScoped',
        message: '`rbac.clusterScoped` is no longer a setting: the scope follows `rbac.namespaces`',
        hint: 'remove it; leave rbac.namespaces empty for cluster-wide roles, or list the namespaces that get roles',
      });
    }
    // The revision's precedence of role namespaces (the same model the RBAC objects follow).
    const model = revisionModel(ctx.revision, ctx.values).scope;
    const scope = { namespaces: model.roleNamespaces.length > 0 ? model.roleNamespaces : undefined, from: model.roleNamespacesFrom };
    if (model.globalWatchNamespaces.length > 0 && scope.from === 'rbac.namespaces') {
      ctx.report({
        rule: 'values/rbac-overrides-global',
        severity: 'info',
        path: 'rbac.namespaces',
        message: scope.namespaces
          ? '`rbac.namespaces` overrides `global.watchNamespaces` for the roles'
          : 'an explicit empty `rbac.namespaces` restores cluster-wide roles although `global.watchNamespaces` is set',
      });
    }
    const watched = strings(ctx.values, 'controller.watchNamespaces');
    if (scope.namespaces && watched.length > 0) {
      const allowed = new Set(scope.namespaces);
      watched.forEach((ns, i) => {
        if (allowed.has(ns)) return;
        ctx.report({
          rule: 'values/watch-scope',
          severity: model.watchOutsideRoles,
          path: ['controller', 'watchNamespaces', i],
          message: `the controller would watch namespace "${ns}" but has no role there (roles come from \`${scope.from}\`: ${scope.namespaces!.join(', ')}); it would loop on Forbidden errors`,
          hint: `add "${ns}" to \`${scope.from}\`, or remove it from controller.watchNamespaces`,
        });
      });
    }
    // The controller runs in namespaceOverride when it is set, else in the release namespace.
    const override = optStr(ctx.values, 'namespaceOverride') ?? '';
    const home = override || ctx.releaseNamespace;
    if (scope.namespaces && home && !scope.namespaces.includes(home)) {
      const where = override ? 'namespaceOverride' : 'the release namespace';
      const fix = `add "${home}" to \`${scope.from}\``;
      ctx.report({
        rule: 'values/rbac-release-namespace',
        severity: 'error',
        path: scope.from,
        message: `\`${scope.from}\` does not include ${where} "${home}", where the controller runs${override ? '' : assumedNamespaceNote(ctx)}`,
        hint: override ? fix : namespaceFix(ctx, fix),
        fix: { append: home },
      });
    }
  },
};
