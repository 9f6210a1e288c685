// A restriction of who may sign in that the values write is never silently widened
// (security/authproxy-email-widened). The proxy takes its --email-domain flags over email_domains
// of its config file, and a domain `*` admits every address, the allow-list included; the chart's
// defaults pass --email-domain=*. agentplat renders what the chart renders and refuses the
// contradiction with the fix (docs/decisions.md). Each case also renders, so the verdict is held
// to the flags and the config file the proxy really gets.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Problem } from '../../src/problems/problem.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { dataSource, parseValuesText } from '../../src/values/source.ts';
import { find, get, render } from '../render/_render.ts';
import { runInProcess } from '../cli/in-process.ts';

const RULE = 'security/authproxy-email-widened';
const CREDENTIALS = { clientID: 'id', clientSecret: 'secret', cookieSecret: '0123456789abcdef' };
const proxy = (extra: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => ({ authproxy: { enabled: true, ...extra, config: { ...CREDENTIALS, ...config } } });
const ALLOW_LIST = { authenticatedEmailsFile: { enabled: true, restricted_access: 'alice@corp.example\nbob@corp.example' } };

function findings(revision: Revision, values: Record<string, unknown>, rule = RULE): Problem[] {
  return lintValues({ revision, layers: [dataSource('values.yaml', values)] }).problems.filter((p) => p.rule === rule);
}

/** The proxy container's args and the text of its mounted config file, as rendered. */
function proxyRuns(revision: Revision, values: Record<string, unknown>): { args: string[]; config: string } {
  const docs = render(revision, values);
  const deployment = get(docs, 'Deployment', 'agentplat-authproxy');
  const config = find(docs, 'ConfigMap', 'agentplat-authproxy') as { data: Record<string, string> } | undefined;
  return { args: deployment.spec.template.spec.containers[0].args, config: config ? String(config.data['oauth2_proxy.cfg']) : '' };
}

describe('a sign-in restriction the values write is enforced by the rendered proxy, or refused', () => {
  it.each(['A', 'B'] as const)('%s: authproxy.config.emailDomains under the default --email-domain=* is an error at the key, naming the flag and the fix', (rev) => {
    const values = proxy({}, { emailDomains: ['corp.example'] });
    const runs = proxyRuns(rev, values);
    expect(runs.args).toContain('--email-domain=*');
    expect(runs.config).toContain('email_domains = ["corp.example"]');
    const found = findings(rev, values);
    expect(found.map((p) => [p.severity, p.path])).toEqual([['error', 'authproxy.config.emailDomains']]);
    expect(found[0]!.message).toMatch(/admits corp\.example, but the container flag --email-domain=\* \(authproxy\.extraArgs\.email-domain, a default of the chart\) wins over the config file/);
    expect(found[0]!.hint).toContain('authproxy.extraArgs: {email-domain: null}');
    expect(found[0]!.hint).toContain('authproxy.extraArgs.email-domain: corp.example');
  });

  it('the fixes the hint gives render a proxy that admits only the domain, and lint is then clean', () => {
    const removed = proxy({ extraArgs: { 'email-domain': null } }, { emailDomains: ['corp.example'] });
    expect(proxyRuns('B', removed).args.filter((a) => a.startsWith('--email-domain'))).toEqual([]);
    expect(proxyRuns('B', removed).config).toContain('email_domains = ["corp.example"]');
    expect(findings('B', removed)).toEqual([]);
    const asFlag = proxy({ extraArgs: { 'email-domain': 'corp.example' } });
    expect(proxyRuns('B', asFlag).args).toContain('--email-domain=corp.example');
    expect(findings('B', asFlag)).toEqual([]);
  });

  it('the allow-list (authenticatedEmailsFile) is refused while a `*` domain is left, in the flag or in the config file', () => {
    const withDefaults = findings('B', proxy(ALLOW_LIST));
    expect(withDefaults.map((p) => p.path)).toEqual(['authproxy.authenticatedEmailsFile.enabled']);
    expect(withDefaults[0]!.hint).toMatch(/email-domain: null.*then set authproxy\.config\.emailDomains: \[\]/);
    const flagGone = proxy({ ...ALLOW_LIST, extraArgs: { 'email-domain': null } });
    expect(proxyRuns('B', flagGone).config).toContain('email_domains = ["*"]');
    const configWide = findings('B', flagGone);
    expect(configWide.map((p) => p.path)).toEqual(['authproxy.authenticatedEmailsFile.enabled']);
    expect(configWide[0]!.message).toMatch(/email_domains = \["\*"\] of the proxy's config file \(authproxy\.config\.emailDomains, the chart's default\)/);
    const listOnly = proxy({ ...ALLOW_LIST, extraArgs: { 'email-domain': null } }, { emailDomains: [] });
    expect(proxyRuns('B', listOnly).config).toContain('email_domains = []');
    expect(findings('B', listOnly)).toEqual([]);
  });

  it('an --email-domain=* item of a list-form extraArgs and email_domains in the user\'s configFile are recognised', () => {
    const list = findings('B', proxy({ extraArgs: ['--email-domain=*', '--skip-provider-button'] }, { emailDomains: ['corp.example'] }));
    expect(list.map((p) => p.path)).toEqual(['authproxy.config.emailDomains']);
    expect(list[0]!.hint).toContain('remove --email-domain=* from authproxy.extraArgs');
    const file = findings('B', proxy({}, { configFile: 'email_domains = ["corp.example"]\nupstreams = ["file:///dev/null"]\n' }));
    expect(file.map((p) => p.path)).toEqual(['authproxy.config.configFile']);
  });

  it('emailDomains that the proxy does not read (config file not mounted, or replaced by configFile) are a warning saying why', () => {
    const unmounted = proxy({ extraArgs: { 'email-domain': null } }, { emailDomains: ['corp.example'], forceLegacyConfig: false });
    expect(proxyRuns('B', unmounted).args.join(' ')).not.toContain('--config');
    expect(proxyRuns('B', unmounted).config).toBe('');
    const found = findings('B', unmounted, 'values/authproxy-no-effect');
    expect(found.map((p) => [p.severity, p.path])).toEqual([['warning', 'authproxy.config.emailDomains']]);
    expect(found[0]!.message).toContain('forceLegacyConfig is false');
    const replaced = findings('B', proxy({ extraArgs: { 'email-domain': 'corp.example' } }, { emailDomains: ['corp.example'] }), 'values/authproxy-no-effect');
    expect(replaced[0]!.message).toContain('--email-domain (authproxy.extraArgs) admits corp.example');
  });

  it('the defaults, and a proxy without restrictions, say nothing', () => {
    expect(findings('B', proxy())).toEqual([]);
    expect(findings('B', proxy({}, { emailDomains: ['*'] }))).toEqual([]);
    expect(findings('B', { authproxy: { enabled: false, config: { emailDomains: ['corp.example'] } } })).toEqual([]);
  });

  it('the finding sits at file:line:col, lint fails, and render prints nothing', async () => {
    const text = 'authproxy:\n  enabled: true\n  config:\n    clientID: id\n    clientSecret: secret\n    cookieSecret: 0123456789abcdef\n    emailDomains: [corp.example]\n';
    expect(findings('B', parseValuesText(text, 'v.yaml').source!.data as Record<string, unknown>).length).toBe(1);
    const located = lintValues({ revision: 'B', layers: [parseValuesText(text, 'v.yaml').source!] }).problems.filter((p) => p.rule === RULE);
    expect(located.map((p) => [p.file, p.line, p.column])).toEqual([['v.yaml', 7, 5]]);
    const r = await runInProcess(['render', '--set-json', `authproxy=${JSON.stringify(proxy({}, { emailDomains: ['corp.example'] }).authproxy)}`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(RULE);
  });
});
