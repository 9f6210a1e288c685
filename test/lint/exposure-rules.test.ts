// security/route-bypasses-authproxy and security/tools-cluster-admin: what the default rendering
// exposes (it follows the real chart and is not changed), said by lint. Each case also renders,
// so the finding is held to what the manifests really do.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Problem } from '../../src/problems/problem.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { dataSource, parseValuesText } from '../../src/values/source.ts';
import { exposureRules } from '../../src/lint/rules/exposure.ts';
import { get, render, valuesFor } from '../render/_render.ts';
import { runInProcess } from '../cli/in-process.ts';

const PROXY = { enabled: true, config: { clientID: 'id', clientSecret: 'secret', cookieSecret: '0123456789abcdef' } };
const ROUTE = { enabled: true, parentRefs: [{ name: 'gw' }] };

function lint(revision: Revision, values: Record<string, unknown>, apiVersions: string[] = []): Problem[] {
  return lintValues({ revision, layers: [dataSource('values.yaml', values)], apiVersions, showDefaultNote: () => true }).problems;
}
const of = (problems: Problem[], rule: string) => problems.filter((p) => p.rule === rule);

describe('security/route-bypasses-authproxy', () => {
  const RULE = 'security/route-bypasses-authproxy';

  it.each(['A', 'B'] as const)('%s: with the proxy on, the HTTPRoute default backend (the UI Service on 8080) is a warning naming the route, the backend and the proxy port', (rev) => {
    const values = { authproxy: PROXY, controller: { auth: { mode: 'trusted-proxy' } }, ui: { httpRoute: ROUTE } };
    const route = get(render(rev, values), 'HTTPRoute');
    expect(route.spec.rules[0].backendRefs[0]).toMatchObject({ name: 'agentplat-ui', port: 8080 });
    const found = of(lint(rev, values), RULE);
    expect(found.map((p) => [p.severity, p.path])).toEqual([['warning', 'ui.httpRoute.enabled']]);
    expect(found[0]!.message).toMatch(/HTTPRoute .*ui\.httpRoute.*UI Service.*8080.*skips sign-in.*trusted-proxy/);
    expect(found[0]!.hint).toMatch(/backendRefs: \[\{name: <release>-authproxy, port: 4180\}\]/);
  });

  it('a rule that names its own backends is left alone; a rule without backends is reported by index', () => {
    const values = { authproxy: PROXY, ui: { httpRoute: { ...ROUTE, rules: [{ backendRefs: [{ name: 'agentplat-authproxy', port: 4180 }] }, { matches: [{ path: { type: 'PathPrefix', value: '/api' } }] }] } } };
    const routes = get(render('B', values), 'HTTPRoute').spec.rules;
    expect(routes.map((r: { backendRefs: { name: string }[] }) => r.backendRefs[0]!.name)).toEqual(['agentplat-authproxy', 'agentplat-ui']);
    expect(of(lint('B', values), RULE).map((p) => p.path)).toEqual(['ui.httpRoute.rules[1]']);
  });

  it('the platform Route (only rendered with its API declared) is reported, with how to replace it', () => {
    const values = { authproxy: PROXY };
    const api = ['route.openshift.io/v1'];
    expect(get(render('B', values, { apiVersions: api }), 'Route').spec.to.name).toBe('agentplat-ui');
    const found = of(lint('B', values, api), RULE);
    expect(found.map((p) => p.path)).toEqual(['authproxy.enabled']);
    expect(found[0]!.hint).toMatch(/ui\.route\.enabled: false.*extraObjects/);
    expect(of(lint('B', { ...values, ui: { route: { enabled: false } } }, api), RULE)).toEqual([]);
    expect(of(lint('B', { ...values, ui: { route: { enabled: true } } }, api), RULE).map((p) => p.path)).toEqual(['ui.route.enabled']);
  });

  it('the platform Route finding points at the key that opens the bypass (authproxy.enabled), not at another ui.* key the file sets', () => {
    const text = 'ui:\n  replicas: 2\nauthproxy:\n  enabled: true\n  config: {clientID: id, clientSecret: secret, cookieSecret: 0123456789abcdef}\n';
    const source = parseValuesText(text, 'values.yaml').source!;
    const found = of(lintValues({ revision: 'B', layers: [source], apiVersions: ['route.openshift.io/v1'] }).problems, RULE);
    expect(found.map((p) => [p.path, p.line, p.column])).toEqual([['authproxy.enabled', 4, 3]]);
  });

  it('without the proxy, or without a route, nothing is reported', () => {
    expect(of(lint('B', { ui: { httpRoute: ROUTE } }, ['route.openshift.io/v1']), RULE)).toEqual([]);
    expect(of(lint('B', { authproxy: PROXY }), RULE)).toEqual([]);
  });

  it('--strict fails the run on it', async () => {
    const r = await runInProcess(['lint', '--strict', '--set-json', `authproxy=${JSON.stringify(PROXY)}`, '--set-json', `ui.httpRoute=${JSON.stringify(ROUTE)}`]);
    expect(r.stdout).toContain(RULE);
    expect(r.code).toBe(1);
  });
});

describe('ways past the proxy besides the default route backend (security/route-bypasses-authproxy, service-bypasses-authproxy, insecure-behind-authproxy)', () => {
  const RULE = 'security/route-bypasses-authproxy';
  const TRUSTED = { auth: { mode: 'trusted-proxy' } };

  it('a ui.httpRoute rule whose backendRef names the UI or the controller Service is reported at that backendRef; one naming the proxy is not', () => {
    const values = { authproxy: PROXY, controller: TRUSTED, ui: { httpRoute: { ...ROUTE, rules: [{ backendRefs: [{ name: 'agentplat-authproxy', port: 4180 }, { name: 'agentplat-controller', port: 8083 }] }, { backendRefs: [{ name: 'agentplat-ui', port: 8080 }] }] } } };
    const routes = get(render('B', values), 'HTTPRoute').spec.rules;
    expect(routes[0].backendRefs[1].name).toBe('agentplat-controller');
    const found = of(lint('B', values), RULE);
    expect(found.map((p) => [p.severity, p.path])).toEqual([['warning', 'ui.httpRoute.rules[0].backendRefs[1]'], ['warning', 'ui.httpRoute.rules[1].backendRefs[0]']]);
    expect(found[0]!.message).toMatch(/controller Service \(agentplat-controller, port 8083\).*skips sign-in/);
    expect(found[1]!.message).toMatch(/UI Service \(agentplat-ui, port 8080\)/);
    expect(found[0]!.hint).toMatch(/name: <release>-authproxy, port: 4180/);
  });

  it('an HTTPRoute, Ingress or platform Route in extraObjects (templated names too) whose backend is the UI or controller Service is reported at its entry, naming the object and the field', () => {
    const extraObjects = [
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'direct-ui' }, spec: { rules: [{ backendRefs: [{ name: '{{ include "agentplat.fullname" . }}-ui', port: 8080 }] }] } },
      { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'direct-api' }, spec: { rules: [{ http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'agentplat-controller', port: { number: 8083 } } } }] } }] } },
      { apiVersion: 'route.openshift.io/v1', kind: 'Route', metadata: { name: 'direct-route' }, spec: { to: { kind: 'Service', name: 'agentplat-ui' } } },
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'through-proxy' }, spec: { rules: [{ backendRefs: [{ name: 'agentplat-authproxy', port: 4180 }] }] } },
      { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'other-namespace', namespace: 'elsewhere' }, spec: { defaultBackend: { service: { name: 'agentplat-ui', port: { number: 8080 } } } } },
    ];
    const values = { authproxy: PROXY, controller: TRUSTED, extraObjects };
    const rendered = render('B', values);
    expect(get(rendered, 'HTTPRoute', 'direct-ui').spec.rules[0].backendRefs[0].name).toBe('agentplat-ui');
    const found = of(lint('B', values), RULE);
    expect(found.map((p) => p.path)).toEqual(['extraObjects[0]', 'extraObjects[1]', 'extraObjects[2]']);
    expect(found[0]!.message).toMatch(/HTTPRoute direct-ui \(extraObjects\[0\], spec\.rules\[0\]\.backendRefs\[0\]\) sends traffic to the UI Service/);
    expect(found[1]!.message).toMatch(/Ingress direct-api .*spec\.rules\[0\]\.http\.paths\[0\]\.backend.*controller Service/);
    expect(found[2]!.message).toMatch(/Route direct-route .*spec\.to/);
    // The proxy's own extraObjects are routes too.
    expect(of(lint('B', { authproxy: { ...PROXY, extraObjects: [extraObjects[1]] }, controller: TRUSTED }), RULE).map((p) => p.path)).toEqual(['authproxy.extraObjects[0]']);
    // Without the proxy such routes are the way in, not a bypass.
    expect(of(lint('B', { extraObjects }), RULE)).toEqual([]);
  });

  it('the Services are matched by the release name the run renders with', async () => {
    const text = 'authproxy:\n  enabled: true\n  config: {clientID: id, clientSecret: secret, cookieSecret: 0123456789abcdef}\ncontroller:\n  auth: {mode: trusted-proxy}\nextraObjects:\n  - apiVersion: gateway.networking.k8s.io/v1\n    kind: HTTPRoute\n    metadata: {name: r}\n    spec: {rules: [{backendRefs: [{name: prod-ui, port: 8080}]}]}\n';
    const dir = (await import('../helpers/temp-dir.ts')).tempDir('agentplat-bypass-');
    (await import('node:fs')).writeFileSync(`${dir}/v.yaml`, text);
    expect((await runInProcess(['lint', 'v.yaml'], { cwd: dir })).stdout).not.toContain(RULE);
    const r = await runInProcess(['lint', 'v.yaml', '--release-name', 'prod', '--strict'], { cwd: dir });
    expect(r.stdout).toMatch(/v\.yaml:7:5 .*HTTPRoute r \(extraObjects\[0\]/);
    expect(r.code).toBe(1);
  });

  it.each([['ui', 'LoadBalancer'], ['ui', 'NodePort'], ['controller', 'LoadBalancer'], ['controller', 'NodePort']] as const)('the %s Service of type %s is reported at its service.type', (component, type) => {
    const values = { authproxy: PROXY, controller: TRUSTED, [component]: { ...(component === 'controller' ? TRUSTED : {}), service: { type } } };
    expect(get(render('B', values), 'Service', `agentplat-${component}`).spec.type).toBe(type);
    const found = of(lint('B', values), 'security/service-bypasses-authproxy');
    expect(found.map((p) => [p.severity, p.path])).toEqual([['warning', `${component}.service.type`]]);
    expect(found[0]!.message).toContain(`Service agentplat-${component} is of type ${type}`);
    expect(found[0]!.hint).toMatch(/ClusterIP/);
    expect(of(lint('B', { [component]: { service: { type } } }), 'security/service-bypasses-authproxy')).toEqual([]);
  });

  it.each(['A', 'B'] as const)('%s: the controller in its insecure mode behind the proxy is reported: the edge forwards X-User-Id as the browser sent it', (rev) => {
    const insecure = rev === 'A' ? 'unsecure' : 'insecure';
    const edge = (values: Record<string, unknown>) => String(get(render(rev, values), 'ConfigMap', 'agentplat-ui-config').data['edge.conf']);
    expect(edge({ authproxy: PROXY })).toMatch(/proxy_pass/);
    expect(edge({ authproxy: PROXY })).not.toMatch(/proxy_set_header x-user-id "";/);
    if (rev === 'B') expect(edge({ authproxy: PROXY, controller: TRUSTED })).toMatch(/proxy_set_header x-user-id "";/);
    const byDefault = of(lint(rev, { authproxy: PROXY }), 'security/insecure-behind-authproxy');
    expect(byDefault.map((p) => [p.severity, p.path])).toEqual([['warning', 'authproxy.enabled']]);
    expect(byDefault[0]!.message).toContain(`${insecure} mode`);
    expect(byDefault[0]!.hint).toContain('controller.auth.mode: trusted-proxy');
    // Revision A's edge clears no identity header at all, trusted-proxy or not: the hint says so.
    expect(byDefault[0]!.hint).toMatch(rev === 'A' ? /clears none of them/ : /the edge then clears the identity headers/);
    expect(of(lint(rev, { authproxy: PROXY, controller: { auth: { mode: insecure } } }), 'security/insecure-behind-authproxy').map((p) => p.path)).toEqual(['controller.auth.mode']);
    expect(of(lint(rev, { authproxy: PROXY, controller: TRUSTED }), 'security/insecure-behind-authproxy')).toEqual([]);
    expect(of(lint(rev, {}), 'security/insecure-behind-authproxy')).toEqual([]);
  });
});

describe('security/tools-cluster-admin', () => {
  const RULE = 'security/tools-cluster-admin';

  it.each(['A', 'B'] as const)('%s: the default tools server RBAC (* on * cluster-wide) is an info naming the keys that narrow it', (rev) => {
    const role = get(render(rev), 'ClusterRole', 'agentplat-tools-cluster-admin-role');
    expect(role.rules).toContainEqual(expect.objectContaining({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }));
    const found = of(lint(rev, {}), RULE);
    expect(found.map((p) => p.severity)).toEqual(['info']);
    for (const key of ['agentplat-tools.rbac.readOnly', 'agentplat-tools.rbac.namespaces', 'agentplat-tools.useDefaultServiceAccount']) expect(found[0]!.hint).toContain(key);
  });

  it('keys that narrow it, once the values have them, end it; absent keys count as their defaults', () => {
    // The rule reads the values as given: the schema of this branch may not know these keys yet.
    const check = (tools: Record<string, unknown>) => {
      const findings: string[] = [];
      exposureCheck({ 'agentplat-tools': { enabled: true, ...tools } }, findings);
      return findings;
    };
    expect(check({})).toEqual([RULE]);
    expect(check({ rbac: { readOnly: false, namespaces: [] } })).toEqual([RULE]);
    expect(check({ rbac: { readOnly: true } })).toEqual([]);
    expect(check({ rbac: { namespaces: ['a'] } })).toEqual([]);
    expect(check({ rbac: { create: false } })).toEqual([]);
    expect(check({ useDefaultServiceAccount: true })).toEqual([]);
    expect(of(lint('B', { 'agentplat-tools': { enabled: false } }), RULE)).toEqual([]);
    expect(get(render('B', { global: { watchNamespaces: ['default'] } }), 'Role', 'agentplat-tools-cluster-admin-role')).toBeDefined();
    expect(of(lint('B', { global: { watchNamespaces: ['default'] } }), RULE)).toEqual([]);
  });

  it('is shown by lint --strict (a note about a default is otherwise only shown with --verbose)', async () => {
    expect((await runInProcess(['lint'])).stdout).not.toContain(RULE);
    expect((await runInProcess(['lint', '--strict'])).stdout).toContain(RULE);
  });
});

function exposureCheck(user: Record<string, unknown>, out: string[]): void {
  exposureRules.check({ revision: 'B', values: valuesFor('B', user).values, userSet: () => true, report: (f) => void out.push(f.rule) });
}

describe('docs/security.md', () => {
  it('lists every way past the proxy lint reports, and the e-mail restriction rule', async () => {
    const { readFileSync } = await import('node:fs');
    const { authproxyRules } = await import('../../src/lint/rules/authproxy.ts');
    const doc = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
    const ids = [...exposureRules.ids.map((r) => r.id).filter((id) => id !== 'security/tools-cluster-admin'), ...authproxyRules.ids.map((r) => r.id).filter((id) => id.startsWith('security/'))];
    expect(ids).toEqual(['security/route-bypasses-authproxy', 'security/service-bypasses-authproxy', 'security/insecure-behind-authproxy', 'security/authproxy-email-widened']);
    for (const id of ids) expect(doc, `${id} is not in docs/security.md`).toContain(`\`${id}\``);
  });
});
