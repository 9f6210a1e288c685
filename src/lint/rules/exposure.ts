// Who can reach what: ways in that skip the authentication proxy, and cluster-wide write access
// the defaults grant. The chart renders both as the real chart does; lint says so.
//   warn: authproxy.enabled: true with ui.httpRoute.enabled: true (the route's default backend is the UI, not the proxy)
//   info: agentplat-tools enabled with its default RBAC (`*` on `*` in every namespace)

import type { RuleContext, ValuesRule } from './types.ts';
import { revisionModel } from '../../model/revisions/index.ts';
import { at, list, optBool, optNum, optStr } from '../../model/values-access.ts';

const BYPASS_RULE = 'security/route-bypasses-authproxy';
const TOOLS_RULE = 'security/tools-cluster-admin';
const ROUTE_API = 'route.openshift.io/v1';
/** The proxy's Service port when authproxy.service.portNumber is not a number. */
const PROXY_PORT = 4180;

export const exposureRules: ValuesRule = {
  ids: [
    { id: BYPASS_RULE, description: 'With the authentication proxy enabled, ui.httpRoute and the platform Route still send traffic to the UI Service, past the proxy (sign-in is skipped)' },
    { id: TOOLS_RULE, description: 'The tools server is bound to a ClusterRole that allows every verb on every resource in every namespace (the default)' },
  ],
  check(ctx) {
    routesPastProxy(ctx);
    toolsClusterAdmin(ctx);
  },
};

function routesPastProxy(ctx: RuleContext): void {
  const v = ctx.values;
  if (optBool(v, 'authproxy.enabled') !== true) return;
  const uiPort = optNum(v, 'ui.service.ports.port') ?? 8080;
  const proxyPort = optNum(v, 'authproxy.service.portNumber') ?? PROXY_PORT;
  const proxyService = optStr(v, 'authproxy.fullnameOverride') || '<release>-authproxy';
  const trusted = optStr(v, 'controller.auth.mode') === 'trusted-proxy' ? ' (and the controller, in trusted-proxy mode, takes the identity headers of whoever reaches it)' : '';
  const backend = `the UI Service (<release>-ui, port ${uiPort})`;
  const proxy = `the proxy's Service ${proxyService} port ${proxyPort}`;
  if (optBool(v, 'ui.httpRoute.enabled') === true) {
    const rules = list(v, 'ui.httpRoute.rules');
    // A rule without backendRefs (or no rule at all) goes to the UI Service.
    const defaulted = rules.length === 0 ? [undefined] : rules.flatMap((r, i) => (hasBackends(r) ? [] : [i]));
    for (const i of defaulted) {
      ctx.report({
        rule: BYPASS_RULE,
        severity: 'warning',
        path: i === undefined ? ['ui', 'httpRoute', 'enabled'] : ['ui', 'httpRoute', 'rules', i],
        message: `the HTTPRoute <release>-ui (ui.httpRoute${i === undefined ? '' : `.rules[${i}]`}) sends traffic to ${backend}, not through the authentication proxy: everyone who uses the route skips sign-in${trusted}`,
        hint: `point the route at ${proxy}: ${i === undefined ? `set ui.httpRoute.rules: [{backendRefs: [{name: ${proxyService}, port: ${proxyPort}}]}]` : `give ui.httpRoute.rules[${i}] backendRefs: [{name: ${proxyService}, port: ${proxyPort}}]`}; docs/security.md explains it`,
      });
    }
  }
  const apis = ctx.apiVersions ?? [];
  if (optBool(v, 'ui.route.enabled') !== false && apis.some((a) => a === ROUTE_API || a.startsWith(`${ROUTE_API}/`))) {
    // The Route is on by default: unless the user turned it on themselves, the key that opens the
    // bypass is the one that put the proxy in front of the UI. (Pointing at ui.route.enabled
    // would place the finding at whichever ui.* key the user happened to write.)
    ctx.report({
      rule: BYPASS_RULE,
      severity: 'warning',
      path: ctx.userSet('ui.route.enabled') ? ['ui', 'route', 'enabled'] : ['authproxy', 'enabled'],
      message: `the platform Route <release>-ui (ui.route) sends traffic to ${backend}, not through the authentication proxy: everyone who uses the route skips sign-in${trusted}`,
      hint: `no key points this Route elsewhere: set ui.route.enabled: false and add a Route to ${proxy} in extraObjects; docs/security.md explains it`,
    });
  }
}

function hasBackends(rule: unknown): boolean {
  if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) return false;
  const refs = (rule as Record<string, unknown>).backendRefs;
  return Array.isArray(refs) && refs.length > 0;
}

/**
 * The tools chart binds its ServiceAccount to a ClusterRole with every verb on every resource
 * unless one of its keys narrows it. Keys the values do not have count as their defaults
 * (useDefaultServiceAccount false, rbac.create true, rbac.readOnly false, rbac.namespaces empty).
 */
function toolsClusterAdmin(ctx: RuleContext): void {
  const v = ctx.values;
  if (optBool(v, 'agentplat-tools.enabled') === false) return;
  if (optBool(v, 'agentplat-tools.useDefaultServiceAccount') === true) return;
  if (optBool(v, 'agentplat-tools.rbac.create') === false || optBool(v, 'agentplat-tools.rbac.readOnly') === true) return;
  const namespaces = at(v, 'agentplat-tools.rbac.namespaces');
  if (Array.isArray(namespaces) && namespaces.length > 0) return;
  // A namespace-scoped install gives the sub-charts one Role per namespace instead.
  if (revisionModel(ctx.revision, v).scope.subchartRoleNamespaces.length > 0) return;
  ctx.report({
    rule: TOOLS_RULE,
    severity: 'info',
    path: ['agentplat-tools', 'enabled'],
    message: 'the tools server is bound to the ClusterRole <release>-tools-cluster-admin-role: every verb on every resource of every API group in every namespace, and every non-resource URL (what its tools need to change the cluster on the agents\' behalf)',
    hint: 'narrow it with agentplat-tools.rbac.readOnly: true (get, list and watch only), agentplat-tools.rbac.namespaces: [ns, …] (one Role per namespace), agentplat-tools.useDefaultServiceAccount: true (no role at all), or agentplat-tools.enabled: false; docs/security.md lists them',
  });
}
