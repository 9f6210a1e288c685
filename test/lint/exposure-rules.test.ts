// security/route-bypasses-authproxy and security/tools-cluster-admin: what the default rendering
// exposes (it follows the real chart and is not changed), said by lint. Each case also renders,
// so the finding is held to what the manifests really do.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Problem } from '../../src/problems/problem.ts';
import type { Revision } from '../../src/spec/revisions.ts';
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
