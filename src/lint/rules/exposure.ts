// Who can reach what: ways in that skip the authentication proxy, and cluster-wide write access
// the defaults grant. The chart renders both as the real chart does; lint says so.
//   warn: authproxy.enabled: true with ui.httpRoute.enabled: true (the route's default backend is the UI, not the proxy)
//   warn: authproxy.enabled: true with a route (ui.httpRoute backendRefs, an HTTPRoute, Ingress or
//         Route in extraObjects) whose backend is the UI or controller Service
//   warn: authproxy.enabled: true with ui.service.type or controller.service.type LoadBalancer or NodePort
//   warn: authproxy.enabled: true with controller.auth.mode insecure (identity headers taken from anyone)
//   info: agentplat-tools enabled with its default RBAC (`*` on `*` in every namespace)

import type { RuleContext, ValuesRule } from './types.ts';
import { revisionModel } from '../../model/revisions/index.ts';
import { at, list, optBool, optNum, optStr } from '../../model/values-access.ts';
import { dnsTrunc, releaseFacts } from '../../model/context.ts';
import { expandExtraObjects } from '../../model/extra-objects.ts';
import { tplScope } from '../../model/tpl-scope.ts';
import type { K8sObject } from '../../model/objects.ts';
import { ROUTE_API } from '../../chart/cluster-apis.ts';

const BYPASS_RULE = 'security/route-bypasses-authproxy';
const TOOLS_RULE = 'security/tools-cluster-admin';
const SERVICE_RULE = 'security/service-bypasses-authproxy';
const INSECURE_RULE = 'security/insecure-behind-authproxy';

/** The proxy's Service port when authproxy.service.portNumber is not a number. */
const PROXY_PORT = 4180;

export const exposureRules: ValuesRule = {
  ids: [
    { id: BYPASS_RULE, description: 'With the authentication proxy enabled, a route (ui.httpRoute, the platform Route, an HTTPRoute, Ingress or Route in extraObjects) sends traffic to the UI or controller Service, past the proxy (sign-in is skipped)' },
    { id: SERVICE_RULE, description: 'With the authentication proxy enabled, the UI or controller Service is of type LoadBalancer or NodePort: reachable from outside the cluster without the proxy' },
    { id: INSECURE_RULE, description: 'With the authentication proxy enabled, the controller runs in insecure mode: it takes the user identity header from any request, and the UI edge forwards it as the browser sent it' },
    { id: TOOLS_RULE, description: 'The tools server is bound to a ClusterRole that allows every verb on every resource in every namespace (the default)' },
  ],
  check(ctx) {
    routesPastProxy(ctx);
    if (optBool(ctx.values, 'authproxy.enabled') === true) {
      const names = chartNames(ctx);
      routedObjectsPastProxy(ctx, names);
      servicesPastProxy(ctx, names);
      insecureBehindProxy(ctx);
    }
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
    const names = chartNames(ctx);
    rules.forEach((r, i) => {
      const refs = hasBackends(r) ? ((r as Record<string, unknown>).backendRefs as unknown[]) : [];
      refs.forEach((ref, j) => {
        const target = gatewayRefTarget(ref, names.namespace, names);
        if (!target) return;
        ctx.report({
          rule: BYPASS_RULE,
          severity: 'warning',
          path: ['ui', 'httpRoute', 'rules', i, 'backendRefs', j],
          message: `the HTTPRoute <release>-ui (ui.httpRoute.rules[${i}].backendRefs[${j}]) sends traffic to ${target}, not through the authentication proxy: everyone who uses the route skips sign-in${trusted}`,
          hint: `point the backendRef at ${proxy} (name: ${proxyService}, port: ${proxyPort}); docs/security.md explains it`,
        });
      });
    });
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

/** The names a bypass is recognised by: the chart namespace and the UI, controller and proxy Services of this release. */
interface ChartNames {
  namespace: string;
  ui: string;
  controller: string;
  proxy: string;
  proxyPort: number;
}

function chartNames(ctx: RuleContext): ChartNames {
  const v = ctx.values;
  const facts = releaseFacts(v, ctx.revision, ctx.releaseName ?? 'agentplat', ctx.releaseNamespace ?? 'default');
  const proxyOverride = optStr(v, 'authproxy.fullnameOverride');
  return {
    namespace: facts.namespace,
    ui: dnsTrunc(`${facts.fullname}-ui`),
    controller: dnsTrunc(`${facts.fullname}-controller`),
    proxy: proxyOverride ? dnsTrunc(proxyOverride) : '<release>-authproxy',
    proxyPort: optNum(v, 'authproxy.service.portNumber') ?? PROXY_PORT,
  };
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** "the UI Service (name, port)" when a Service named `name` in `namespace` is the UI's or the controller's. */
function serviceTarget(name: unknown, namespace: string, names: ChartNames, port?: unknown): string | undefined {
  if (namespace !== names.namespace) return undefined;
  const p = typeof port === 'number' || typeof port === 'string' ? `, port ${port}` : '';
  if (name === names.ui) return `the UI Service (${names.ui}${p})`;
  if (name === names.controller) return `the controller Service (${names.controller}${p})`;
  return undefined;
}

/** A Gateway API backendRef (a Service when kind and group are left out) that names the UI or controller Service. */
function gatewayRefTarget(ref: unknown, namespace: string, names: ChartNames): string | undefined {
  if (!isMap(ref)) return undefined;
  if ((ref.kind ?? 'Service') !== 'Service' || (ref.group ?? '') !== '') return undefined;
  return serviceTarget(ref.name, typeof ref.namespace === 'string' && ref.namespace ? ref.namespace : namespace, names, ref.port);
}

/** Each backend of a routing object (Gateway API routes, Ingress, the platform Route) that is the UI or controller Service, with where in the object it is. */
function bypassesIn(object: K8sObject, names: ChartNames): { where: string; target: string }[] {
  const ns = typeof object.metadata.namespace === 'string' && object.metadata.namespace ? object.metadata.namespace : names.namespace;
  const spec = isMap(object.spec) ? object.spec : {};
  const group = object.apiVersion.includes('/') ? object.apiVersion.slice(0, object.apiVersion.indexOf('/')) : '';
  const found: { where: string; target: string }[] = [];
  const add = (where: string, target: string | undefined) => void (target && found.push({ where, target }));
  if (group === 'gateway.networking.k8s.io' && object.kind.endsWith('Route')) {
    (Array.isArray(spec.rules) ? spec.rules : []).forEach((r, i) => {
      const refs = isMap(r) && Array.isArray(r.backendRefs) ? r.backendRefs : [];
      refs.forEach((ref, j) => add(`spec.rules[${i}].backendRefs[${j}]`, gatewayRefTarget(ref, ns, names)));
    });
  } else if (group === 'networking.k8s.io' && object.kind === 'Ingress') {
    const service = (b: unknown) => (isMap(b) && isMap(b.service) ? b.service : undefined);
    const port = (s: Record<string, unknown>) => (isMap(s.port) ? (s.port.number ?? s.port.name) : undefined);
    const def = service(spec.defaultBackend);
    if (def) add('spec.defaultBackend', serviceTarget(def.name, ns, names, port(def)));
    (Array.isArray(spec.rules) ? spec.rules : []).forEach((r, i) => {
      const paths = isMap(r) && isMap(r.http) && Array.isArray(r.http.paths) ? r.http.paths : [];
      paths.forEach((p, j) => {
        const s = isMap(p) ? service(p.backend) : undefined;
        if (s) add(`spec.rules[${i}].http.paths[${j}].backend`, serviceTarget(s.name, ns, names, port(s)));
      });
    });
  } else if (group === 'route.openshift.io' && object.kind === 'Route') {
    const to = (t: unknown) => (isMap(t) && (t.kind ?? 'Service') === 'Service' ? t.name : undefined);
    add('spec.to', serviceTarget(to(spec.to), ns, names));
    (Array.isArray(spec.alternateBackends) ? spec.alternateBackends : []).forEach((t, i) => add(`spec.alternateBackends[${i}]`, serviceTarget(to(t), ns, names)));
  }
  return found;
}

/** The routing objects of extraObjects (the chart's and the proxy's) whose backend is the UI or controller Service. */
function routedObjectsPastProxy(ctx: RuleContext, names: ChartNames): void {
  const v = ctx.values;
  const scope = tplScope({ ...releaseFacts(v, ctx.revision, ctx.releaseName ?? 'agentplat', ctx.releaseNamespace ?? 'default'), values: v });
  const lists: (readonly string[])[] = [['extraObjects'], ['authproxy', 'extraObjects']];
  for (const at_ of lists) {
    const entries = at(v, at_.join('.'));
    if (!Array.isArray(entries)) continue;
    // Template problems are values/templated-values' findings; what expands is checked here.
    for (const { index, object } of expandExtraObjects(entries, scope, at_).objects) {
      for (const { where, target } of bypassesIn(object, names)) {
        ctx.report({
          rule: BYPASS_RULE,
          severity: 'warning',
          path: [...at_, index],
          message: `the ${object.kind} ${String(object.metadata.name)} (${at_.join('.')}[${index}], ${where}) sends traffic to ${target}, not through the authentication proxy: everyone who uses it skips sign-in`,
          hint: `point ${where} at the proxy's Service ${names.proxy} port ${names.proxyPort}; docs/security.md explains it`,
        });
      }
    }
  }
}

/** The UI and controller Services opened outside the cluster, where nobody passes the proxy. */
function servicesPastProxy(ctx: RuleContext, names: ChartNames): void {
  for (const [component, name] of [['ui', names.ui], ['controller', names.controller]] as const) {
    const type = optStr(ctx.values, `${component}.service.type`);
    if (type !== 'LoadBalancer' && type !== 'NodePort') continue;
    ctx.report({
      rule: SERVICE_RULE,
      severity: 'warning',
      path: `${component}.service.type`,
      message: `the ${component === 'ui' ? 'UI' : 'controller'} Service ${name} is of type ${type}: it is reachable from outside the cluster${type === 'NodePort' ? ' on every node\'s port' : ' at the load balancer\'s address'} without passing the authentication proxy`,
      hint: `keep ${component}.service.type: ClusterIP and expose the proxy's Service ${names.proxy} instead (authproxy.service.type, authproxy.ingress or authproxy.gatewayApi); docs/security.md explains it`,
    });
  }
}

/**
 * In insecure mode the controller takes the user's identity from the request's identity header,
 * and the UI edge clears that header only in trusted-proxy mode: behind the proxy, any signed-in
 * user can name another user.
 */
function insecureBehindProxy(ctx: RuleContext): void {
  const revision = revisionModel(ctx.revision, ctx.values);
  const model = revision.controller;
  const mode = optStr(ctx.values, 'controller.auth.mode') ?? model.authModes[0];
  if (mode === 'trusted-proxy' || mode === undefined || !model.authModes.includes(mode)) return;
  ctx.report({
    rule: INSECURE_RULE,
    severity: 'warning',
    path: ctx.userSet('controller.auth.mode') ? 'controller.auth.mode' : 'authproxy.enabled',
    message: `the authentication proxy is enabled but the controller runs in ${mode} mode (controller.auth.mode${ctx.userSet('controller.auth.mode') ? '' : ', the default'}): it takes the user from the X-User-Id header of each request, and the UI edge forwards that header as the browser sent it (${revision.ui.stripsIdentityHeaders ? 'it clears it only in trusted-proxy mode' : 'it clears no identity header'}), so any signed-in user can act as another by sending X-User-Id`,
    hint: revision.ui.stripsIdentityHeaders
      ? 'set controller.auth.mode: trusted-proxy: the edge then clears the identity headers the browser sends and the controller takes the identity the proxy checked; docs/security.md explains it'
      : 'set controller.auth.mode: trusted-proxy, and have the proxy set the identity headers itself: this revision\'s UI edge clears none of them; docs/security.md explains it',
  });
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
