// authproxy (spec 2.9, 4, 5.2): the OAuth2 proxy in front of the UI.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AUTHPROXY_INLINE, find, render } from './helpers.ts';
import { platformComponent, SIGN_IN_HTML } from '../../src/render/components/platform.ts';
import { ctxFor } from './helpers.ts';
import { get as getDoc, render as renderMain } from '../render/_render.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { mergeValues } from '../../src/values/merge.ts';

const container = (docs: ReturnType<typeof render>, name = 'agentplat-authproxy') => find(docs, 'Deployment', name).spec.template.spec.containers[0];
const envOf = (c: any, name: string) => c.env.find((e: any) => e.name === name);

describe('authproxy', () => {
  it('2.9 extraArgs: every default becomes a sorted --key=value flag after the listen addresses, before the legacy config file', () => {
    for (const [rev, staticPrefix] of [['A', '_next/static/|_next/image'], ['B', 'assets/']] as const) {
      const args: string[] = container(render(rev, { authproxy: AUTHPROXY_INLINE })).args;
      expect(args).toEqual([
        '--http-address=0.0.0.0:4180',
        '--metrics-address=0.0.0.0:44180',
        '--approval-prompt=auto',
        '--cookie-samesite=lax',
        '--cookie-secure=true',
        '--custom-templates-dir=/templates',
        '--email-domain=*',
        '--oidc-issuer-url=$(OIDC_ISSUER_URL)',
        '--pass-authorization-header=true',
        '--provider=oidc',
        '--redirect-url=$(OIDC_REDIRECT_URL)',
        '--scope=openid profile email groups',
        '--set-authorization-header=true',
        `--skip-auth-regex=^/(login|${staticPrefix}|login-bg\\.(jpg|png|webp)|logo-.*\\.png|favicon\\.ico|api/agentharnesses/.*/gateway)`,
        '--skip-auth-route=^/(health|login)$',
        '--skip-jwt-bearer-tokens=true',
        '--upstream=$(UPSTREAM_URL)',
        '--config=/etc/oauth2_proxy/oauth2_proxy.cfg',
      ]);
    }
  });

  it('2.9 extraArgs: a user key joins the sorted flags and an overridden default changes its flag', () => {
    const args: string[] = container(render('B', { authproxy: { ...AUTHPROXY_INLINE, extraArgs: { 'cookie-expire': '12h', scope: 'openid email' } } })).args;
    expect(args).toContain('--cookie-expire=12h');
    expect(args).toContain('--scope=openid email');
    const flags = args.slice(2, -1).map((a) => a.slice(2, a.indexOf('=')));
    expect(flags).toEqual([...flags].sort());
  });

  it('authproxy-upstream-ui: UPSTREAM_URL (used by --upstream) is the UI service on port 8080 of this release; issuer and redirect URLs empty', () => {
    const c = container(render('A', { authproxy: AUTHPROXY_INLINE }, { release: 'prod', namespace: 'team-x' }), 'prod-authproxy');
    expect(envOf(c, 'UPSTREAM_URL').value).toBe('http://prod-ui.team-x.svc:8080');
    expect(c.args).toContain('--upstream=$(UPSTREAM_URL)');
    expect(envOf(c, 'OIDC_ISSUER_URL').value).toBe('');
    expect(envOf(c, 'OIDC_REDIRECT_URL').value).toBe('');
  });

  it('2.9 extraEnv: the sign-in template checksum is the sha256 of the sign-in page the ConfigMap holds', () => {
    const ctx = ctxFor('B', { authproxy: AUTHPROXY_INLINE });
    const docs = [...platformComponent.render(ctx), ...render('B', { authproxy: AUTHPROXY_INLINE })];
    const page = find(docs, 'ConfigMap', 'agentplat-authproxy-templates').data['sign_in.html'];
    expect(page).toBe(SIGN_IN_HTML);
    expect(envOf(container(docs), 'SIGNIN_TEMPLATE_CHECKSUM').value).toBe(createHash('sha256').update(page).digest('hex'));
    expect(page).toContain('/login');
    expect(page).not.toContain('{{');
  });

  it('authproxy-sign-in-templates: the sign-in ConfigMap of this release is the custom-templates volume, mounted read-only at /templates, the custom-templates-dir', () => {
    const values = { authproxy: AUTHPROXY_INLINE };
    const docs = [...platformComponent.render(ctxFor('A', values, { release: 'prod' })), ...render('A', values, { release: 'prod' })];
    const pod = find(docs, 'Deployment', 'prod-authproxy').spec.template.spec;
    expect(pod.volumes).toEqual([
      { name: 'configmain', configMap: { name: 'prod-authproxy', defaultMode: 420 } },
      { name: 'custom-templates', configMap: { name: 'prod-authproxy-templates' } },
    ]);
    expect(pod.containers[0].volumeMounts).toEqual([
      { name: 'configmain', mountPath: '/etc/oauth2_proxy/oauth2_proxy.cfg', subPath: 'oauth2_proxy.cfg' },
      { name: 'custom-templates', mountPath: '/templates', readOnly: true },
    ]);
    expect(pod.containers[0].args).toContain('--custom-templates-dir=/templates');
    // the volume names the ConfigMap the main chart renders for this release
    expect(find(docs, 'ConfigMap', 'prod-authproxy-templates').metadata.namespace).toBe('agentplat');
  });

  it('5.2 inline secrets: one Secret with client-id, client-secret, cookie-secret, read by the proxy env', () => {
    const docs = render('A', { authproxy: AUTHPROXY_INLINE });
    const secret = find(docs, 'Secret', 'agentplat-authproxy');
    const decoded = Object.fromEntries(Object.entries(secret.data as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    expect(decoded).toEqual({ 'client-id': 'agentplat-ui', 'client-secret': 'test-client-secret', 'cookie-secret': '0123456789abcdef0123456789abcdef' });
    const c = container(docs);
    expect(envOf(c, 'OAUTH2_PROXY_CLIENT_SECRET').valueFrom.secretKeyRef).toEqual({ name: 'agentplat-authproxy', key: 'client-secret' });
    expect(envOf(c, 'OAUTH2_PROXY_COOKIE_SECRET').valueFrom.secretKeyRef).toEqual({ name: 'agentplat-authproxy', key: 'cookie-secret' });
  });

  it('5.2 config.existingSecret: no Secret is rendered and the proxy reads the three keys from the named Secret', () => {
    const docs = render('B', { authproxy: { enabled: true, config: { existingSecret: 'oidc-credentials' } } });
    expect(docs.filter((d) => d.object.kind === 'Secret' && d.source.includes('/authproxy/'))).toEqual([]);
    const c = container(docs);
    for (const [env, key] of [['OAUTH2_PROXY_CLIENT_ID', 'client-id'], ['OAUTH2_PROXY_CLIENT_SECRET', 'client-secret'], ['OAUTH2_PROXY_COOKIE_SECRET', 'cookie-secret']]) {
      expect(envOf(c, env!).valueFrom.secretKeyRef).toEqual({ name: 'oidc-credentials', key });
    }
  });

  it('4 endpoints: Service on service.portNumber 4180 to the http port; /ping liveness, /ready readiness; cookie sessions', () => {
    const docs = render('A', { authproxy: AUTHPROXY_INLINE });
    const svc = find(docs, 'Service', 'agentplat-authproxy');
    expect(svc.spec.type).toBe('ClusterIP');
    expect(svc.spec.ports[0]).toMatchObject({ name: 'http', port: 4180, targetPort: 'http' });
    const c = container(docs);
    expect(c.ports[0]).toEqual({ name: 'http', containerPort: 4180, protocol: 'TCP' });
    expect(c.livenessProbe.httpGet.path).toBe('/ping');
    expect(c.readinessProbe.httpGet.path).toBe('/ready');
    expect(envOf(c, 'OAUTH2_PROXY_SESSION_STORE_TYPE').value).toBe('cookie');
  });

  it('authproxy-oidc: OIDC client id/secret and cookie secret (or an existing Secret), scopes, issuer/redirect from env, Bearer JWTs, Authorization header, secure SameSite=lax cookie session', () => {
    for (const rev of ['A', 'B'] as const) {
      const c = container(render(rev, { authproxy: AUTHPROXY_INLINE }));
      const flags = new Map((c.args as string[]).map((a) => [a.slice(2, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
      expect(flags.get('provider'), rev).toBe('oidc');
      expect(flags.get('scope'), rev).toBe('openid profile email groups');
      expect(flags.get('oidc-issuer-url'), rev).toBe('$(OIDC_ISSUER_URL)');
      expect(flags.get('redirect-url'), rev).toBe('$(OIDC_REDIRECT_URL)');
      expect(envOf(c, 'OIDC_ISSUER_URL'), rev).toBeDefined();
      expect(envOf(c, 'OIDC_REDIRECT_URL'), rev).toBeDefined();
      expect(flags.get('skip-jwt-bearer-tokens'), rev).toBe('true');
      expect(flags.get('pass-authorization-header'), rev).toBe('true');
      expect(flags.get('set-authorization-header'), rev).toBe('true');
      expect(flags.get('cookie-secure'), rev).toBe('true');
      expect(flags.get('cookie-samesite'), rev).toBe('lax');
      expect(envOf(c, 'OAUTH2_PROXY_SESSION_STORE_TYPE').value, rev).toBe('cookie');
      for (const [env, key] of [['OAUTH2_PROXY_CLIENT_ID', 'client-id'], ['OAUTH2_PROXY_CLIENT_SECRET', 'client-secret'], ['OAUTH2_PROXY_COOKIE_SECRET', 'cookie-secret']] as const) {
        expect(envOf(c, env).valueFrom.secretKeyRef, `${rev} ${env}`).toEqual({ name: 'agentplat-authproxy', key });
        const existing = container(render(rev, { authproxy: { enabled: true, config: { existingSecret: 'oidc' } } }));
        expect(envOf(existing, env).valueFrom.secretKeyRef, `${rev} ${env} existingSecret`).toEqual({ name: 'oidc', key });
      }
    }
  });

  it('authproxy-skip-auth-paths: skip-auth-route matches exactly /login and /health', () => {
    for (const rev of ['A', 'B'] as const) {
      const args: string[] = container(render(rev, { authproxy: AUTHPROXY_INLINE })).args;
      const route = new RegExp(args.find((a) => a.startsWith('--skip-auth-route='))!.slice('--skip-auth-route='.length));
      for (const open of ['/login', '/health']) expect(route.test(open), `${rev} ${open}`).toBe(true);
      for (const closed of ['/', '/login/', '/loginx', '/healthz', '/health/live', '/api/sessions', '/x/login']) expect(route.test(closed), `${rev} ${closed}`).toBe(false);
    }
  });

  const skipAuthRegex = (rev: 'A' | 'B') => {
    const args: string[] = container(render(rev, { authproxy: AUTHPROXY_INLINE })).args;
    return new RegExp(args.find((a) => a.startsWith('--skip-auth-regex='))!.slice('--skip-auth-regex='.length));
  };

  it('authproxy-static-prefix-a: [A] skip-auth-regex exempts /login and the static-asset prefix /_next/static', () => {
    const re = skipAuthRegex('A');
    for (const open of ['/login', '/_next/static/chunks/main.js']) expect(re.test(open), open).toBe(true);
    for (const closed of ['/', '/api/sessions', '/assets/index.js', '/static/x.js', '/x/login']) expect(re.test(closed), closed).toBe(false);
  });

  it('authproxy-static-prefix-b: [B] skip-auth-regex exempts /login and the static-asset prefix /assets/', () => {
    const re = skipAuthRegex('B');
    for (const open of ['/login', '/assets/index-3f2a.js']) expect(re.test(open), open).toBe(true);
    for (const closed of ['/', '/api/sessions', '/_next/static/chunks/main.js', '/assetsx', '/x/assets/a.js']) expect(re.test(closed), closed).toBe(false);
  });

  it('authproxy-skip-auth-alternatives: the login page\'s images, the favicon and the harness gateway path are open in both revisions, nothing else', () => {
    for (const rev of ['A', 'B'] as const) {
      const re = skipAuthRegex(rev);
      for (const open of ['/login', '/login-bg.jpg', '/login-bg.png', '/login-bg.webp', '/logo-dark.png', '/favicon.ico', '/api/agentharnesses/support-bot/gateway', '/api/agentharnesses/support-bot/gateway/events']) {
        expect(re.test(open), `${rev} ${open}`).toBe(true);
      }
      for (const closed of ['/', '/api/agentharnesses/support-bot', '/api/agentharnesses', '/api/agents/x/gateway', '/logo.svg', '/x/login-bg.jpg', '/api/sessions']) {
        expect(re.test(closed), `${rev} ${closed}`).toBe(false);
      }
    }
    expect(skipAuthRegex('A').test('/_next/image?url=%2Flogo.png&w=64')).toBe(true);
  });

  it('authproxy-sso-start: the proxy listens on 4180 (authproxy.service.portNumber) and the UI starts login at ui.auth.ssoRedirectPath /oauth2/start', () => {
    for (const rev of ['A', 'B'] as const) {
      const docs = render(rev, { authproxy: AUTHPROXY_INLINE });
      const c = container(docs);
      expect(c.args, rev).toContain('--http-address=0.0.0.0:4180');
      expect(c.ports[0].containerPort, rev).toBe(4180);
      expect(find(docs, 'Service', 'agentplat-authproxy').spec.ports[0].port, rev).toBe(4180);
      const values = mergeValues(defaultsSource(rev).data, {});
      expect((values as any).ui.auth.ssoRedirectPath, rev).toBe('/oauth2/start');
      expect((values as any).authproxy.service.portNumber, rev).toBe(4180);
      const uiEnv = getDoc(renderMain(rev), 'Deployment', 'agentplat-ui').spec.template.spec.containers[0].env;
      expect(uiEnv.find((e: any) => e.name === 'SSO_REDIRECT_PATH'), rev).toEqual({ name: 'SSO_REDIRECT_PATH', value: '/oauth2/start' });
    }
  });

  it('image: the real upstream OAuth2 proxy, pinned; [B] global.imageRegistry moves it to the mirror', () => {
    expect(container(render('A', { authproxy: AUTHPROXY_INLINE })).image).toBe('quay.io/oauth2-proxy/oauth2-proxy:v7.15.3');
    expect(container(render('B', { authproxy: AUTHPROXY_INLINE, global: { imageRegistry: 'mirror.example.com' } })).image).toBe(
      'mirror.example.com/oauth2-proxy/oauth2-proxy:v7.15.3',
    );
  });

  it('chart-wide keys reach the sub-chart: top-level labels, [B] pull secrets union, pull policy fallback', () => {
    const docs = render('B', {
      authproxy: AUTHPROXY_INLINE,
      labels: { team: 'platform' },
      imagePullSecrets: [{ name: 'local' }],
      global: { imagePullSecrets: [{ name: 'mirror' }, { name: 'local' }], imagePullPolicy: 'Always' },
    });
    const dep = find(docs, 'Deployment', 'agentplat-authproxy');
    expect(dep.metadata.labels.team).toBe('platform');
    expect(dep.spec.template.spec.imagePullSecrets).toEqual([{ name: 'local' }, { name: 'mirror' }]);
    expect(dep.spec.template.spec.containers[0].imagePullPolicy).toBe('Always');
  });
});
