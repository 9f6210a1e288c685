// One test per render behaviour, named after the values-rules.json row it pins.
import { describe, expect, it } from 'vitest';
import { envOf, find, get, kinds, render } from './_render.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';
import { builtinPromptsName, toolServerName } from '../../src/render/chart.ts';
import { buildRenderContext } from '../../src/model/context.ts';
import { DuplicateObjectError } from '../../src/render/order.ts';
import { readFileSync } from 'node:fs';
import { chartCrdDocs } from '../../src/crds/index.ts';
import { defaultsSource } from '../../src/values/defaults.ts';

const CTRL = 'agentplat-controller';
const UI = 'agentplat-ui';
const DB = 'agentplat-postgresql';
const ctrl = (docs: RenderedDoc[]) => get(docs, 'Deployment', CTRL);
const ui = (docs: RenderedDoc[]) => get(docs, 'Deployment', UI);
const db = (docs: RenderedDoc[]) => get(docs, 'Deployment', DB);
const pod = (d: any) => d.spec.template.spec;
const container = (d: any) => d.spec.template.spec.containers[0];
const config = (docs: RenderedDoc[]) => get(docs, 'ConfigMap', CTRL).data as Record<string, string>;
const chartOwn = (docs: RenderedDoc[]) => docs.filter((d) => d.source.startsWith('agentplat/templates/'));

describe('images', () => {
  it('image-top-level-defaults: registry ghcr.io and the chart version tag; the top-level tag wins for controller and UI', () => {
    expect(container(ctrl(render('A'))).image).toBe('ghcr.io/agentplat/controller:0.10.0');
    expect(container(ui(render('B'))).image).toBe('ghcr.io/agentplat/ui:0.11.0');
    const docs = render('B', { tag: '9.9.9', controller: { image: { tag: '1.0.0' }, agentImage: { tag: '2.0.0' } } });
    expect(container(ctrl(docs)).image).toBe('ghcr.io/agentplat/controller:9.9.9');
    // The agent image's own tag wins over the top-level tag.
    expect(config(docs).IMAGE_TAG).toBe('2.0.0');
  });

  it('global-image-registry-override: [B] replaces the registry of controller, UI, sandbox guest and bundled database', () => {
    const docs = render('B', { global: { imageRegistry: 'mirror.local' }, controller: { image: { registry: 'own.example' } } });
    expect(container(ctrl(docs)).image).toBe('mirror.local/agentplat/controller:0.11.0');
    expect(container(ui(docs)).image).toBe('mirror.local/agentplat/ui:0.11.0');
    expect(container(db(docs)).image).toBe('mirror.local/library/postgres:18.3-alpine');
    expect(config(docs).SANDBOX_GUEST_IMAGE).toBe('mirror.local/agentplat/sandbox-guest:0.11.0');
    expect(config(docs).IMAGE_REGISTRY).toBe('mirror.local');
  });

  it('image-pull-policy-fallback-b: empty top-level policy falls back to global.imagePullPolicy, then IfNotPresent', () => {
    expect(container(ctrl(render('B'))).imagePullPolicy).toBe('IfNotPresent');
    expect(container(ctrl(render('B', { global: { imagePullPolicy: 'Always' } }))).imagePullPolicy).toBe('Always');
    expect(container(ctrl(render('B', { imagePullPolicy: 'Never', global: { imagePullPolicy: 'Always' } }))).imagePullPolicy).toBe('Never');
    expect(container(ctrl(render('B', { controller: { image: { pullPolicy: 'Always' } }, imagePullPolicy: 'Never' }))).imagePullPolicy).toBe('Always');
  });

  it('bundled-db-pull-policy-fallback-b: the bundled database follows the same chain', () => {
    expect(container(db(render('B', { global: { imagePullPolicy: 'Always' } }))).imagePullPolicy).toBe('Always');
    expect(container(db(render('B', { imagePullPolicy: 'Never', global: { imagePullPolicy: 'Always' } }))).imagePullPolicy).toBe('Never');
  });

  it('pull-policy-defaults-a: revision A defaults to IfNotPresent everywhere', () => {
    const docs = render('A');
    for (const d of [ctrl(docs), ui(docs), db(docs)]) expect(container(d).imagePullPolicy).toBe('IfNotPresent');
    expect(config(docs).IMAGE_PULL_POLICY).toBe('IfNotPresent');
  });

  it('global-image-pull-secrets-union: local secrets first, global ones added once, none removed', () => {
    const docs = render('B', { imagePullSecrets: [{ name: 'local' }, { name: 'shared' }], global: { imagePullSecrets: [{ name: 'shared' }, { name: 'global' }] } });
    expect(pod(ctrl(docs)).imagePullSecrets).toEqual([{ name: 'local' }, { name: 'shared' }, { name: 'global' }]);
    expect(pod(ui(docs)).imagePullSecrets).toEqual([{ name: 'local' }, { name: 'shared' }, { name: 'global' }]);
    expect(pod(db(docs)).imagePullSecrets).toEqual([{ name: 'local' }, { name: 'shared' }, { name: 'global' }]);
    // revision A has no global list: the bundled database still gets the chart's pull secrets
    expect(pod(db(render('A', { imagePullSecrets: [{ name: 'local' }] }))).imagePullSecrets).toEqual([{ name: 'local' }]);
    expect(pod(ctrl(render('B'))).imagePullSecrets).toBeUndefined();
  });

  it('vector-enabled: the bundled database switches to a pinned pgvector build of the same PostgreSQL major', () => {
    const docs = render('A', { database: { rdb: { vectorEnabled: true } } });
    expect(container(db(docs)).image).toBe('docker.io/pgvector/pgvector:0.8.1-pg18');
    // a mirror set as the bundled image registry serves the pgvector build too
    expect(container(db(render('A', { database: { rdb: { vectorEnabled: true, bundled: { image: { registry: 'mirror.local' } } } } }))).image).toBe('mirror.local/pgvector/pgvector:0.8.1-pg18');
    expect(config(docs).DATABASE_VECTOR_ENABLED).toBe('true');
  });
});

describe('labels, annotations, security contexts, scheduling', () => {
  it('pod-labels-precedence: global podLabels, component podLabels win per key, selector labels never overridden', () => {
    const docs = render('B', {
      podLabels: { team: 'global', tier: 'a', 'app.kubernetes.io/name': 'hijack' },
      controller: { podLabels: { team: 'controller', 'app.kubernetes.io/component': 'hijack' } },
    });
    expect(ctrl(docs).spec.template.metadata.labels).toEqual({
      team: 'controller',
      tier: 'a',
      'app.kubernetes.io/name': 'agentplat',
      'app.kubernetes.io/component': 'controller',
      'app.kubernetes.io/instance': 'agentplat',
    });
    expect(ui(docs).spec.template.metadata.labels.team).toBe('global');
    expect(ctrl(docs).spec.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'agentplat', 'app.kubernetes.io/instance': 'agentplat', 'app.kubernetes.io/component': 'controller' });
  });

  it('global-annotations-labels: top-level labels on every chart object, annotations on deployments (component wins)', () => {
    const docs = chartOwn(render('B', { labels: { owner: 'platform' }, annotations: { a: 'global', b: 'global' }, controller: { annotations: { b: 'controller' } } }));
    for (const d of docs) expect(d.object.metadata.labels, `${d.object.kind}/${d.object.metadata.name}`).toMatchObject({ owner: 'platform', 'app.kubernetes.io/managed-by': 'agentplat' });
    expect(ctrl(docs).metadata.annotations).toEqual({ a: 'global', b: 'controller' });
    expect(ui(docs).metadata.annotations).toEqual({ a: 'global', b: 'global' });
  });

  it('global-security-contexts / ui-security-context-override: components replace the globals as a whole', () => {
    const docs = render('A', { podSecurityContext: { runAsUser: 1000 }, ui: { securityContext: { privileged: false } } });
    expect(pod(ctrl(docs)).securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, runAsUser: 1000 });
    expect(container(ui(docs)).securityContext).toEqual({ privileged: false });
    expect(container(ctrl(docs)).securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true });
  });

  it('top-level nodeSelector and tolerations are fall-backs for pods that set none', () => {
    const docs = render('B', { nodeSelector: { pool: 'general' }, tolerations: [{ key: 'k', operator: 'Exists' }], ui: { nodeSelector: { pool: 'web' } } });
    expect(pod(ctrl(docs)).nodeSelector).toEqual({ pool: 'general' });
    expect(pod(ui(docs)).nodeSelector).toEqual({ pool: 'web' });
    expect(pod(ui(docs)).tolerations).toEqual([{ key: 'k', operator: 'Exists' }]);
    expect(pod(db(docs)).nodeSelector).toEqual({ pool: 'general' });
    expect(pod(ctrl(render('B'))).nodeSelector).toBeUndefined();
  });

  it('[B] bundled database scheduling keys and podLabels', () => {
    const docs = render('B', { database: { rdb: { bundled: { nodeSelector: { disk: 'ssd' }, podLabels: { backup: 'yes' }, affinity: { nodeAffinity: {} } } } } });
    expect(pod(db(docs)).nodeSelector).toEqual({ disk: 'ssd' });
    expect(db(docs).spec.template.metadata.labels.backup).toBe('yes');
    expect(pod(db(docs)).affinity).toEqual({ nodeAffinity: {} });
  });

  it('probe-replacement / ui-probes-overridable: a user probe replaces the default entirely', () => {
    const exec = { exec: { command: ['true'] }, periodSeconds: 5 };
    const docs = render('A', { controller: { readinessProbe: exec }, ui: { startupProbe: exec } });
    expect(container(ctrl(docs)).readinessProbe).toEqual(exec);
    expect(container(ctrl(docs)).startupProbe).toEqual({ httpGet: { path: '/health', port: 'http' }, periodSeconds: 15, initialDelaySeconds: 15 });
    expect(container(ui(docs)).startupProbe).toEqual(exec);
  });

  it('ipv6-binding: the edge listens on [::] too, the UI server and agent pods bind to ::', () => {
    const docs = render('A', { ipv6: true });
    const cm = get(docs, 'ConfigMap', `${UI}-config`).data;
    expect(cm['edge.conf']).toContain('listen [::]:8080;');
    expect(cm['supervisord.conf']).toContain('HOSTNAME="::"');
    expect(config(docs).DEFAULT_AGENT_BIND_HOST).toBe('::');
    expect(get(render('A'), 'ConfigMap', `${UI}-config`).data['edge.conf']).not.toContain('[::]');
  });
});

describe('RBAC and watch scope', () => {
  it('rbac-namespaces-scope-a: empty list → ClusterRoles; a list → one Role and RoleBinding per namespace, WATCH_NAMESPACES from it', () => {
    expect(kinds(render('A')).filter((k) => /Role/.test(k) && k.includes('agentplat-getter'))).toEqual(['ClusterRole/agentplat-getter-role', 'ClusterRoleBinding/agentplat-getter-rolebinding']);
    const docs = render('A', { rbac: { namespaces: ['default', 'team-a'] } });
    expect(kinds(docs).filter((k) => k.includes('getter'))).toEqual(['Role/default/agentplat-getter-role', 'Role/team-a/agentplat-getter-role', 'RoleBinding/default/agentplat-getter-rolebinding', 'RoleBinding/team-a/agentplat-getter-rolebinding']);
    expect(find(docs, 'ClusterRole', 'agentplat-getter-role')).toBeUndefined();
    expect(config(docs).WATCH_NAMESPACES).toBe('default,team-a');
    expect(get(docs, 'RoleBinding', 'agentplat-writer-rolebinding').subjects).toEqual([{ kind: 'ServiceAccount', name: CTRL, namespace: 'default' }]);
  });

  it('controller-watch-all-default: WATCH_NAMESPACES is "" by default; controller.watchNamespaces wins over the role list', () => {
    expect(config(render('B')).WATCH_NAMESPACES).toBe('');
    expect(config(render('A', { rbac: { namespaces: ['default', 'b'] }, controller: { watchNamespaces: ['b', 'b'] } })).WATCH_NAMESPACES).toBe('b');
  });

  it('global-watch-namespaces-scope: [B] global.watchNamespaces gives namespaced roles and scopes the watch', () => {
    const docs = render('B', { global: { watchNamespaces: ['default', 'apps'] } });
    expect(kinds(docs).filter((k) => k.endsWith('writer-role'))).toEqual(['Role/apps/agentplat-writer-role', 'Role/default/agentplat-writer-role']);
    expect(config(docs).WATCH_NAMESPACES).toBe('default,apps');
  });

  it('rbac-overrides-global-b: rbac.namespaces overrides global.watchNamespaces; an explicit empty list restores cluster scope', () => {
    const scoped = render('B', { global: { watchNamespaces: ['default', 'apps'] }, rbac: { namespaces: ['default'] } });
    expect(kinds(scoped).filter((k) => k.endsWith('getter-role'))).toEqual(['Role/default/agentplat-getter-role']);
    const cluster = render('B', { global: { watchNamespaces: ['default', 'apps'] }, rbac: { namespaces: [] } });
    expect(find(cluster, 'ClusterRole', 'agentplat-getter-role')).toBeDefined();
    expect(find(cluster, 'Role', 'agentplat-getter-role')).toBeUndefined();
  });

  it('leader election: a Role and RoleBinding only when controller.replicas > 1, and LEADER_ELECT follows', () => {
    expect(find(render('B'), 'Role', 'agentplat-leader-election-role')).toBeUndefined();
    const docs = render('B', { controller: { replicas: 3 } });
    expect(get(docs, 'Role', 'agentplat-leader-election-role').rules[0]).toEqual({ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] });
    expect(get(docs, 'RoleBinding', 'agentplat-leader-election-rolebinding').roleRef.name).toBe('agentplat-leader-election-role');
    expect(config(docs).LEADER_ELECT).toBe('true');
  });

  it('controller-service-account-b: create false uses an external account; name overrides the default', () => {
    const docs = render('B', { controller: { serviceAccount: { create: false, name: 'external-sa' } } });
    expect(find(docs, 'ServiceAccount', CTRL)).toBeUndefined();
    expect(find(docs, 'ServiceAccount', 'external-sa')).toBeUndefined();
    expect(pod(ctrl(docs)).serviceAccountName).toBe('external-sa');
    expect(get(docs, 'ClusterRoleBinding', 'agentplat-getter-rolebinding').subjects[0].name).toBe('external-sa');
    expect(get(render('B', { controller: { serviceAccount: { name: 'mine' } } }), 'ServiceAccount', 'mine')).toBeDefined();
  });
});

describe('metrics', () => {
  const on = (metrics: Record<string, unknown>, rev: 'A' | 'B' = 'B', extra: Record<string, unknown> = {}, apiVersions: string[] = []) =>
    render(rev, { controller: { metrics: { enabled: true, ...metrics } }, ...extra }, { apiVersions });

  it('metrics-provisioning: disabled by default; enabled gives the Service, env, container port and roles', () => {
    expect(kinds(chartOwn(render('B'))).some((k) => k.includes('metrics'))).toBe(false);
    const docs = on({});
    expect(get(docs, 'Service', 'agentplat-controller-metrics').spec.ports).toEqual([{ name: 'https', port: 8443, targetPort: 8443, protocol: 'TCP' }]);
    expect(envOf(ctrl(docs))).toMatchObject({ METRICS_BIND_ADDRESS: ':8443', METRICS_SECURE: 'true' });
    expect(container(ctrl(docs)).ports).toContainEqual({ name: 'metrics', containerPort: 8443, protocol: 'TCP' });
    expect(get(docs, 'ClusterRole', 'agentplat-metrics-reader').rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
  });

  it('metrics-port-from-bind-address: targetPort and containerPort derive from the bind address', () => {
    for (const [addr, port] of [[':9443', 9443], ['127.0.0.1:9090', 9090], ['[::1]:9443', 9443]] as const) {
      const docs = on({ bindAddress: addr });
      expect(get(docs, 'Service', 'agentplat-controller-metrics').spec.ports[0].targetPort).toBe(port);
      expect(container(ctrl(docs)).ports.find((p: any) => p.name === 'metrics').containerPort).toBe(port);
    }
  });

  it('metrics-bind-address-disable: "0" or "" renders no metrics port, env, Service or RBAC', () => {
    for (const bindAddress of ['0', '']) {
      const docs = on({ bindAddress });
      expect(kinds(chartOwn(docs)).filter((k) => k.includes('metrics'))).toEqual([]);
      expect(envOf(ctrl(docs)).METRICS_BIND_ADDRESS).toBeUndefined();
      expect(container(ctrl(docs)).ports.map((p: any) => p.name)).toEqual(['http']);
    }
  });

  it('metrics-authenticated-when-secure: auth role and binding only with secureServing; port name follows', () => {
    const secure = on({});
    expect(get(secure, 'ClusterRoleBinding', 'agentplat-metrics-auth-rolebinding').subjects).toEqual([{ kind: 'ServiceAccount', name: CTRL, namespace: 'default' }]);
    const insecure = on({ secureServing: false });
    expect(find(insecure, 'ClusterRole', 'agentplat-metrics-auth-role')).toBeUndefined();
    expect(get(insecure, 'Service', 'agentplat-controller-metrics').spec.ports[0].name).toBe('http-metrics');
  });

  it('service-monitor-requirements-b: rendered only with metrics enabled AND the monitoring API declared, never in A', () => {
    const sm = { serviceMonitor: { enabled: true } };
    expect(find(on(sm), 'ServiceMonitor')).toBeUndefined();
    expect(find(on(sm, 'B', {}, ['monitoring.coreos.com/v1']), 'ServiceMonitor')).toBeDefined();
    expect(find(on(sm, 'B', {}, ['monitoring.coreos.com/v1/ServiceMonitor']), 'ServiceMonitor')).toBeDefined();
    expect(find(render('B', { controller: { metrics: { enabled: false, ...sm } } }, { apiVersions: ['monitoring.coreos.com/v1'] }), 'ServiceMonitor')).toBeUndefined();
    expect(find(on({ bindAddress: '0', ...sm }, 'B', {}, ['monitoring.coreos.com/v1']), 'ServiceMonitor')).toBeUndefined();
  });

  it('service-monitor-follows-secure-serving-b: https endpoint with bearer token and TLS; plain http-metrics otherwise; "" omits the token', () => {
    const api = ['monitoring.coreos.com/v1'];
    const secure = get(on({ serviceMonitor: { enabled: true } }, 'B', {}, api), 'ServiceMonitor');
    expect(secure.spec.endpoints).toEqual([{ port: 'https', path: '/metrics', honorLabels: false, scheme: 'https', bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token', tlsConfig: { insecureSkipVerify: true } }]);
    const plain = get(on({ secureServing: false, serviceMonitor: { enabled: true, interval: '15s' } }, 'B', {}, api), 'ServiceMonitor');
    expect(plain.spec.endpoints).toEqual([{ port: 'http-metrics', path: '/metrics', interval: '15s', honorLabels: false }]);
    const noToken = get(on({ serviceMonitor: { enabled: true, bearerTokenFile: '', tlsConfig: { caFile: '/ca.crt' } } }, 'B', {}, api), 'ServiceMonitor');
    expect(noToken.spec.endpoints[0].bearerTokenFile).toBeUndefined();
    expect(noToken.spec.endpoints[0].tlsConfig).toEqual({ caFile: '/ca.crt' });
  });

  it('service-monitor-interval-default-b: an empty interval or scrapeTimeout is left out, so the scraper uses its global default', () => {
    const api = ['monitoring.coreos.com/v1'];
    const endpoint = (sm: Record<string, unknown>) => get(on({ serviceMonitor: { enabled: true, ...sm } }, 'B', {}, api), 'ServiceMonitor').spec.endpoints[0];
    for (const secureServing of [true, false]) {
      const empty = get(on({ secureServing, serviceMonitor: { enabled: true, interval: '', scrapeTimeout: '' } }, 'B', {}, api), 'ServiceMonitor').spec.endpoints[0];
      expect(empty, `secureServing ${secureServing}`).not.toHaveProperty('interval');
      expect(empty, `secureServing ${secureServing}`).not.toHaveProperty('scrapeTimeout');
    }
    expect(endpoint({})).not.toHaveProperty('interval');
    expect(endpoint({ interval: '30s', scrapeTimeout: '10s' })).toMatchObject({ interval: '30s', scrapeTimeout: '10s' });
    expect(endpoint({ interval: '30s' })).not.toHaveProperty('scrapeTimeout');
    expect(endpoint({ scrapeTimeout: '10s' })).not.toHaveProperty('interval');
  });

  it('service-monitor-namespace-b / service-monitor-labels-merge-b: created in its namespace, scraping the release namespace, labels merged', () => {
    const sm = get(on({ serviceMonitor: { enabled: true, namespace: 'monitoring', labels: { release: 'prom' } } }, 'B', {}, ['monitoring.coreos.com/v1']), 'ServiceMonitor');
    expect(sm.metadata.namespace).toBe('monitoring');
    expect(sm.spec.namespaceSelector).toEqual({ matchNames: ['default'] });
    expect(sm.metadata.labels).toMatchObject({ release: 'prom', 'app.kubernetes.io/component': 'controller' });
  });

  it('service-monitor-scraper-binding-b / service-monitor-scraper-namespace-b: binds the reader to the scraper account', () => {
    const api = ['monitoring.coreos.com/v1'];
    const subj = (sm: Record<string, unknown>) => get(on({ serviceMonitor: { enabled: true, ...sm } }, 'B', {}, api), 'ClusterRoleBinding', 'agentplat-metrics-reader').subjects[0];
    expect(subj({ scraperServiceAccount: { name: 'prom' } })).toEqual({ kind: 'ServiceAccount', name: 'prom', namespace: 'default' });
    expect(subj({ namespace: 'monitoring', scraperServiceAccount: { name: 'prom' } }).namespace).toBe('monitoring');
    expect(subj({ namespace: 'monitoring', scraperServiceAccount: { name: 'prom', namespace: 'obs' } }).namespace).toBe('obs');
    expect(find(on({ serviceMonitor: { enabled: true } }, 'B', {}, api), 'ClusterRoleBinding', 'agentplat-metrics-reader')).toBeUndefined();
  });
});

describe('PodDisruptionBudgets', () => {
  it('pdb-enabled-advice: no budgets by default', () => {
    expect(find(render('A'), 'PodDisruptionBudget')).toBeUndefined();
  });

  it('pdb-min-available-unset: maxUnavailable 1 is used; selectors equal the component selector labels', () => {
    const docs = render('B', { controller: { pdb: { enabled: true } }, ui: { pdb: { enabled: true } } });
    const c = get(docs, 'PodDisruptionBudget', CTRL);
    expect(c.spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: ctrl(docs).spec.selector.matchLabels } });
    expect(get(docs, 'PodDisruptionBudget', UI).spec.selector.matchLabels['app.kubernetes.io/component']).toBe('ui');
  });

  it('pdb-thresholds-exclusive: an explicit 0 is honoured; percentages pass through', () => {
    const docs = render('B', { controller: { pdb: { enabled: true, maxUnavailable: null, minAvailable: 0 } }, ui: { pdb: { enabled: true, maxUnavailable: '50%' } } });
    expect(get(docs, 'PodDisruptionBudget', CTRL).spec.minAvailable).toBe(0);
    expect(get(docs, 'PodDisruptionBudget', CTRL).spec.maxUnavailable).toBeUndefined();
    expect(get(docs, 'PodDisruptionBudget', UI).spec.maxUnavailable).toBe('50%');
  });

  it('pdb-unhealthy-eviction-policy: omitted when empty and when --kube-version is older than 1.27', () => {
    const values = { controller: { pdb: { enabled: true, unhealthyPodEvictionPolicy: 'AlwaysAllow' } } };
    expect(get(render('B', values), 'PodDisruptionBudget', CTRL).spec.unhealthyPodEvictionPolicy).toBe('AlwaysAllow');
    expect(get(render('B', values, { kubeVersion: '1.27' }), 'PodDisruptionBudget', CTRL).spec.unhealthyPodEvictionPolicy).toBe('AlwaysAllow');
    expect(get(render('B', values, { kubeVersion: '1.26.3' }), 'PodDisruptionBudget', CTRL).spec.unhealthyPodEvictionPolicy).toBeUndefined();
    expect(get(render('B', { controller: { pdb: { enabled: true } } }), 'PodDisruptionBudget', CTRL).spec.unhealthyPodEvictionPolicy).toBeUndefined();
  });

  it('PDB labels and annotations merge with the component labels, which are kept', () => {
    const p = get(render('A', { ui: { pdb: { enabled: true, labels: { team: 'web', 'app.kubernetes.io/component': 'x' }, annotations: { a: 'b' } } } }), 'PodDisruptionBudget', UI);
    expect(p.metadata.labels).toMatchObject({ team: 'web', 'app.kubernetes.io/component': 'ui' });
    expect(p.metadata.annotations).toEqual({ a: 'b' });
  });
});

describe('controller configuration (the env contract)', () => {
  it('grpc-shares-service-port-b: one service port (8083) in both revisions; no second gRPC port', () => {
    for (const rev of ['A', 'B'] as const) {
      const docs = render(rev);
      expect(get(docs, 'Service', CTRL).spec.ports).toEqual([{ name: 'controller', port: 8083, targetPort: 8083, protocol: 'TCP' }]);
      expect(container(ctrl(docs)).ports).toEqual([{ name: 'http', containerPort: 8083, protocol: 'TCP' }]);
    }
    expect(config(render('B', { controller: { grpc: { reflection: true } } })).GRPC_REFLECTION).toBe('true');
  });

  it('a2a-base-url-default-a / a2a-gateway-url-default-b: defaults to the controller service; overrides win', () => {
    expect(config(render('A')).A2A_BASE_URL).toBe('http://agentplat-controller.default.svc:8083');
    expect(config(render('A', { controller: { a2aBaseUrl: 'https://a2a.example.com' } })).A2A_BASE_URL).toBe('https://a2a.example.com');
    expect(get(render('B', {}, { releaseName: 'prod', releaseNamespace: 'ns1' }), 'ConfigMap', 'prod-controller').data.A2A_GATEWAY_URL).toBe('http://prod-controller.ns1.svc:8083');
    expect(config(render('B', { controller: { a2aGatewayUrl: 'https://gw.example.com' } })).A2A_GATEWAY_URL).toBe('https://gw.example.com');
  });

  it('a2a-client-timeout: empty means no key (no timeout); a duration is passed on', () => {
    expect(config(render('B')).AGENTPLAT_A2A_CLIENT_TIMEOUT).toBeUndefined();
    expect(config(render('B', { controller: { a2aClientTimeout: '10m' } })).AGENTPLAT_A2A_CLIENT_TIMEOUT).toBe('10m');
  });

  it('mcp-egress-plaintext, tool-refresh-interval-a, auth-mode-words, auth-user-id-claim-b', () => {
    expect(config(render('B', { controller: { mcpEgressPlaintext: true } })).MCP_EGRESS_PLAINTEXT).toBe('true');
    expect(config(render('A')).TOOL_REFRESH_INTERVAL).toBe('60s');
    expect(config(render('A', { controller: { toolRefreshInterval: '5m' } })).TOOL_REFRESH_INTERVAL).toBe('5m');
    expect(config(render('B')).TOOL_REFRESH_INTERVAL).toBeUndefined();
    expect(config(render('A')).AUTH_MODE).toBe('unsecure');
    expect(config(render('B')).AUTH_MODE).toBe('insecure');
    expect(config(render('B', { controller: { auth: { userIdClaim: 'email' } } })).AUTH_USER_ID_CLAIM).toBe('email');
  });

  it('agent-deployment-defaults-a / agent-bind-host-a / agent-service-account-precedence-a / agent-image-pull-secret-a', () => {
    const d = config(render('A', { ipv6: true, controller: { agentImage: { pullSecret: 'regcred' }, agentDeployment: { host: '10.0.0.1', podLabels: { team: 'platform', env: 'prod' }, nodeSelector: { pool: 'agents', 'kubernetes.io/os': 'linux' }, serviceAccountName: 'agents' } } }));
    expect(d).toMatchObject({ DEFAULT_AGENT_BIND_HOST: '10.0.0.1', DEFAULT_AGENT_POD_LABELS: 'env=prod,team=platform', DEFAULT_AGENT_NODE_SELECTOR: 'kubernetes.io/os=linux,pool=agents', DEFAULT_SERVICE_ACCOUNT_NAME: 'agents', IMAGE_PULL_SECRET: 'regcred' });
    const plain = config(render('A'));
    for (const k of ['DEFAULT_AGENT_BIND_HOST', 'DEFAULT_AGENT_POD_LABELS', 'DEFAULT_AGENT_NODE_SELECTOR', 'DEFAULT_SERVICE_ACCOUNT_NAME', 'IMAGE_PULL_SECRET']) expect(plain[k], k).toBeUndefined();
  });

  it('[B] sandbox and session TTLs and the sandbox guest image (pinned by digest when given)', () => {
    const d = config(render('B', { controller: { sandbox: { cpu: '2', maxTTL: '48h', guestImage: { digest: 'sha256:abc' } }, sessionIdleTTL: '24h' } }));
    expect(d).toMatchObject({ SANDBOX_CPU: '2', SANDBOX_MEMORY: '1Gi', SANDBOX_DEFAULT_TTL: '1h', SANDBOX_MAX_TTL: '48h', SESSION_IDLE_TTL: '24h', SESSION_SHARE_MAX_TTL: '0', SANDBOX_GUEST_IMAGE: 'ghcr.io/agentplat/sandbox-guest@sha256:abc' });
  });

  it('substrate-api-access-a: [A] a projected token of substrateApiTokenAudience, expiring after substrateApiTokenExpirationSeconds (3600), at substrateApiTokenFile; substrateApiInsecure', () => {
    const wiring = (substrate: Record<string, unknown>) => {
      const d = ctrl(render('A', { controller: { substrate: { enabled: true, ...substrate } } }));
      const volume = pod(d).volumes.find((v: any) => v.name === 'substrate-api-token');
      const mount = container(d).volumeMounts.find((m: any) => m.name === 'substrate-api-token');
      return { token: volume?.projected.sources[0].serviceAccountToken, mount, env: envOf(d) };
    };
    const defaults = wiring({});
    expect(defaults.token).toEqual({ audience: 'substrate-api', expirationSeconds: 3600, path: 'token' });
    expect(defaults.mount).toEqual({ name: 'substrate-api-token', mountPath: '/var/run/secrets/substrate', readOnly: true });
    expect(defaults.env.SUBSTRATE_API_TOKEN_FILE).toBe('/var/run/secrets/substrate/token');
    expect(defaults.env.SUBSTRATE_API_INSECURE).toBeUndefined();
    const set = wiring({ substrateApiTokenAudience: 'ate-api', substrateApiTokenExpirationSeconds: 7200, substrateApiTokenFile: '/run/ate/api-token', substrateApiInsecure: true });
    expect(set.token).toEqual({ audience: 'ate-api', expirationSeconds: 7200, path: 'api-token' });
    expect(set.mount.mountPath).toBe('/run/ate');
    expect(set.env).toMatchObject({ SUBSTRATE_API_TOKEN_FILE: '/run/ate/api-token', SUBSTRATE_API_INSECURE: 'true' });
    // Folder and file by the POSIX path functions: the mount is the whole folder, the token its last segment.
    const deep = wiring({ substrateApiTokenFile: '/var/run/secrets/ate.d/api.token' });
    expect([deep.mount.mountPath, deep.token.path]).toEqual(['/var/run/secrets/ate.d', 'api.token']);
    // A path that gives no folder to mount is never rendered (lint refuses it first: values/substrate-token-file).
    for (const file of ['token', '/token', '/']) expect(() => wiring({ substrateApiTokenFile: file }), file).toThrow(/substrateApiTokenFile/);
    // revision B reaches the API with pod certificates instead: no token volume, no token env
    const b = ctrl(render('B', { controller: { substrate: { enabled: true } } }));
    expect(pod(b).volumes.map((v: any) => v.name)).not.toContain('substrate-api-token');
    expect(envOf(b).SUBSTRATE_API_TOKEN_FILE).toBeUndefined();
  });

  it('otel-timeout-a: revision A exporter keys (shared endpoint when tracing and logging agree)', () => {
    const shared = config(render('A', { otel: { tracing: { enabled: true, exporter: { otlp: { endpoint: 'http://otel:4317' } } }, logging: { exporter: { otlp: { endpoint: 'http://otel:4317' } } } } }));
    expect(shared).toMatchObject({ OTEL_TRACING_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4317', OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '15000', OTEL_EXPORTER_OTLP_LOGS_INSECURE: 'true', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    const traces = config(render('A', { otel: { tracing: { exporter: { otlp: { endpoint: 'http://t:4317' } } } } }));
    expect(traces.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).toBe('http://t:4317');
    expect(traces.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it('otel-signal-endpoint-override-b / otel-resource-attributes-b / otel-capture-b / otel-timeout-b', () => {
    const d = config(
      render('B', {
        otel: {
          exporter: { otlp: { endpoint: 'https://otel:4318', protocol: 'http/protobuf', timeout: '5000' } },
          traces: { enabled: true, endpoint: 'https://traces:4318/v1/traces' },
          metrics: { enabled: true, protocol: 'grpc' },
          resourceAttributes: { 'service.namespace': 'platform', 'deployment.environment': 'prod' },
          capture: { messageContent: true, maxBytes: '4096' },
        },
      }),
    );
    expect(d).toMatchObject({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TIMEOUT: '5000',
      OTEL_TRACES_ENABLED: 'true',
      OTEL_LOGS_ENABLED: 'false',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces:4318/v1/traces',
      OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.namespace=platform',
      AGENTPLAT_OTEL_CAPTURE_MESSAGE_CONTENT: 'true',
      AGENTPLAT_OTEL_CAPTURE_RAW_API_BODIES: 'false',
      AGENTPLAT_OTEL_CAPTURE_MAX_BYTES: '4096',
    });
    expect(config(render('B')).OTEL_EXPORTER_OTLP_TIMEOUT).toBeUndefined();
  });

  it('external-url: AGENTPLAT_UI_URL only when ui.externalUrl is set; proxy.url likewise', () => {
    expect(config(render('B')).AGENTPLAT_UI_URL).toBeUndefined();
    const d = config(render('B', { ui: { externalUrl: 'https://agents.example.com' }, proxy: { url: 'http://proxy:3128' } }));
    expect(d.AGENTPLAT_UI_URL).toBe('https://agents.example.com');
    expect(d.PROXY_URL).toBe('http://proxy:3128');
  });

  it('user controller.env entries come after the chart env; envFrom starts with the controller ConfigMap', () => {
    const docs = render('B', { controller: { env: [{ name: 'ZAP', value: 'x' }], envFrom: [{ secretRef: { name: 's' } }] } });
    expect(container(ctrl(docs)).env.at(-1)).toEqual({ name: 'ZAP', value: 'x' });
    expect(container(ctrl(docs)).envFrom).toEqual([{ configMapRef: { name: CTRL } }, { secretRef: { name: 's' } }]);
  });

  it('the controller pod restarts when its ConfigMap changes (checksum annotation), and only then', () => {
    const sum = (v: Record<string, unknown>) => ctrl(render('B', v)).spec.template.metadata.annotations['checksum/configmap'];
    expect(sum({})).toBe(sum({}));
    expect(sum({ controller: { loglevel: 'debug' } })).not.toBe(sum({}));
    expect(ctrl(render('B', { podAnnotations: { a: '1' } })).spec.template.metadata.annotations.a).toBe('1');
    expect(ctrl(render('B', { podAnnotations: { a: '1' }, controller: { podAnnotations: { b: '2' } } })).spec.template.metadata.annotations.a).toBeUndefined();
  });
});

describe('database', () => {
  it('bundled-db-condition: bundled objects only when enabled and neither url nor urlFile is set', () => {
    const bundledKinds = (docs: RenderedDoc[]) => kinds(docs).filter((k) => k.includes(DB));
    expect(bundledKinds(render('B'))).toEqual([`ServiceAccount/default/${DB}`, `Secret/default/${DB}`, `PersistentVolumeClaim/default/${DB}`, `Service/default/${DB}`, `Deployment/default/${DB}`]);
    expect(bundledKinds(render('B', { database: { rdb: { url: 'postgres://x' } } }))).toEqual([]);
    expect(bundledKinds(render('B', { database: { rdb: { urlFile: '/f' } } }))).toEqual([]);
  });

  it('db-url-precedence: urlFile wins over url; bundled gives the password from the Secret', () => {
    const env = (v: Record<string, unknown>) => envOf(ctrl(render('A', { database: { rdb: v } })));
    expect(env({ url: 'postgres://u', urlFile: '/f' })).toMatchObject({ POSTGRES_DATABASE_URL_FILE: '/f' });
    expect(env({ url: 'postgres://u', urlFile: '/f' }).POSTGRES_DATABASE_URL).toBeUndefined();
    expect(JSON.parse(env({ url: 'postgres://u' }).POSTGRES_DATABASE_URL!)).toEqual({ secretKeyRef: { name: 'agentplat-database-url', key: 'POSTGRES_DATABASE_URL' } });
    expect(env({ url: 'postgres://u' }).POSTGRES_PASSWORD).toBeUndefined();
    expect(env({}).POSTGRES_DATABASE_URL).toBe('postgres://agentplat:$(POSTGRES_PASSWORD)@agentplat-postgresql.default.svc:5432/agentplat?sslmode=disable');
    expect(JSON.parse(env({}).POSTGRES_PASSWORD!)).toEqual({ secretKeyRef: { name: DB, key: 'POSTGRES_PASSWORD' } });
  });

  it('the bundled database password is a fixed documented demo value, never random', () => {
    const secret = get(render('B'), 'Secret', DB);
    expect(Buffer.from(secret.data.POSTGRES_PASSWORD, 'base64').toString()).toBe('agentplat-demo');
    expect(get(render('B'), 'Secret', DB)).toEqual(secret);
  });

  it('db-pool-library-defaults / skip-migrations / session-retention-a: pool keys only when set (0 counts)', () => {
    expect(Object.keys(config(render('B'))).filter((k) => k.startsWith('DB_'))).toEqual([]);
    const d = config(render('A', { database: { rdb: { pool: { maxConns: 0, minConns: 2, maxConnLifetime: '2h' }, skipMigrations: true, sessionRetentionDays: 7 } } }));
    expect(d).toMatchObject({ DB_MAX_CONNS: '0', DB_MIN_CONNS: '2', DB_MAX_CONN_LIFETIME: '2h', SKIP_MIGRATIONS: 'true', SESSION_RETENTION_DAYS: '7' });
    expect(d.DB_MAX_CONN_IDLE_TIME).toBeUndefined();
    expect(config(render('B')).SESSION_RETENTION_DAYS).toBeUndefined();
  });

  it('storage-class-default: storageClassName only when set; size from bundled.storage', () => {
    expect(get(render('B'), 'PersistentVolumeClaim', DB).spec.storageClassName).toBeUndefined();
    const pvc = get(render('B', { database: { rdb: { bundled: { storageClassName: 'fast', storage: '5Gi' } } } }), 'PersistentVolumeClaim', DB);
    expect(pvc.spec).toMatchObject({ storageClassName: 'fast', resources: { requests: { storage: '5Gi' } } });
  });
});

describe('UI', () => {
  const edge = (docs: RenderedDoc[]) => get(docs, 'ConfigMap', `${UI}-config`).data['edge.conf'] as string;

  it('ui-proxied-paths / edge-timeouts: /api/ and /a2a/ (and [B] /mcp) go to the controller with the configured timeouts', () => {
    const a = edge(render('A', { ui: { edge: { proxyReadTimeout: '600s', proxySendTimeout: '300s' } } }));
    expect(a).toContain('proxy_pass http://agentplat_backend/api/;');
    expect(a).toContain('proxy_pass http://agentplat_backend/api/a2a/;');
    expect(a).not.toContain('location /mcp');
    expect(a).toContain('proxy_read_timeout 600s;');
    expect(a).toContain('proxy_send_timeout 300s;');
    expect(a).toContain('server agentplat-controller.default.svc:8083;');
    expect(edge(render('B'))).toContain('location /mcp {');
  });

  it('forwarded-headers-a: revision A does not strip at the edge; the list reaches the UI server', () => {
    const docs = render('A', { ui: { additionalForwardedHeaders: ['X-Tenant'] } });
    expect(edge(docs)).not.toContain('proxy_set_header x-forwarded-user "";');
    expect(envOf(ui(docs)).AGENTPLAT_ADDITIONAL_FORWARDED_HEADERS).toBe('x-tenant');
  });

  it('forwarded-headers-b: identity headers are stripped on proxied paths unless listed (case-insensitive)', () => {
    const stripped = edge(render('B'));
    expect(stripped.match(/proxy_set_header x-forwarded-user "";/g)).toHaveLength(3);
    expect(stripped).toContain('proxy_set_header x-auth-request-email "";');
    expect(stripped).not.toContain('proxy_set_header Authorization');
    const listed = edge(render('B', { ui: { additionalForwardedHeaders: ['X-Forwarded-User'] } }));
    expect(listed).not.toContain('x-forwarded-user "";');
    expect(listed).toContain('x-forwarded-email "";');
  });

  it('forwarded-headers-trusted-proxy-b: X-Agent-Name and X-User-Id are always stripped in trusted-proxy mode, even if listed', () => {
    const conf = edge(render('B', { controller: { auth: { mode: 'trusted-proxy' } }, ui: { additionalForwardedHeaders: ['X-User-Id'] } }));
    expect(conf).toContain('proxy_set_header x-user-id "";');
    expect(conf).toContain('proxy_set_header x-agent-name "";');
    expect(edge(render('B'))).not.toContain('x-user-id');
  });

  it('public-backend-url: the default /api is a path on the UI host that the edge proxies to the controller; an absolute URL is handed to the browser as is', () => {
    for (const rev of ['A', 'B'] as const) {
      const docs = render(rev);
      expect((defaultsSource(rev).data as any).ui.publicBackendUrl, rev).toBe('/api');
      expect(envOf(ui(docs)).NEXT_PUBLIC_BACKEND_URL, rev).toBe('/api');
      expect(edge(docs), rev).toMatch(/location \/api\/ \{[^}]*proxy_pass http:\/\/agentplat_backend\/api\/;/);
      const abs = render(rev, { ui: { publicBackendUrl: 'https://api.example.com' } });
      expect(envOf(ui(abs)).NEXT_PUBLIC_BACKEND_URL, rev).toBe('https://api.example.com');
    }
  });

  it('public-backend-url-config-json-b / base-path-b: /config.json carries apiBaseUrl, prefixed by basePath when root-relative', () => {
    const cm = get(render('B', { ui: { basePath: '/ui' } }), 'ConfigMap', `${UI}-config`).data;
    expect(JSON.parse(cm['config.json'])).toEqual({ apiBaseUrl: '/ui/api', basePath: '/ui' });
    expect(cm['edge.conf']).toContain('location = /config.json {');
    const abs = get(render('B', { ui: { basePath: '/ui', publicBackendUrl: 'https://api.example.com' } }), 'ConfigMap', `${UI}-config`).data;
    expect(JSON.parse(abs['config.json']).apiBaseUrl).toBe('https://api.example.com');
    expect(get(render('A'), 'ConfigMap', `${UI}-config`).data['config.json']).toBeUndefined();
  });

  it('ui-tmp-volume: /tmp size limit in both; the build cache only in revision A', () => {
    expect(pod(ui(render('A', { ui: { volumes: { tmp: '80Mi' } } }))).volumes.slice(0, 2)).toEqual([
      { name: 'nextjs-cache', emptyDir: { sizeLimit: '100Mi' } },
      { name: 'tmp', emptyDir: { sizeLimit: '80Mi' } },
    ]);
    expect(pod(ui(render('B'))).volumes.map((v: any) => v.name)).toEqual(['tmp', 'ui-config']);
  });

  it('ui-env-shape / ui-env-b: [A] a map becomes name/value entries, [B] a list is kept verbatim after the chart env', () => {
    expect(container(ui(render('A', { ui: { env: { FOO: 'bar' } } }))).env.at(-1)).toEqual({ name: 'FOO', value: 'bar' });
    const entry = { name: 'AGENTPLAT_UI_EXTENSION_THEME', valueFrom: { configMapKeyRef: { name: 'theme', key: 'name' } } };
    expect(container(ui(render('B', { ui: { env: [entry] } }))).env.at(-1)).toEqual(entry);
  });

  it('stream timeout and SSO redirect path reach the UI container', () => {
    const env = envOf(ui(render('B', { ui: { streamTimeoutSeconds: 600 } })));
    expect(env).toMatchObject({ AGENTPLAT_STREAM_TIMEOUT_MS: '600000', SSO_REDIRECT_PATH: '/oauth2/start', NEXT_PUBLIC_BACKEND_URL: '/api' });
  });

  it('route-gating / route-timeout-annotation: the Route needs ui.route.enabled and the route API, and targets the UI container port', () => {
    expect(find(render('A'), 'Route')).toBeUndefined();
    const route = get(render('A', {}, { apiVersions: ['route.openshift.io/v1'] }), 'Route');
    expect(route.metadata.annotations).toEqual({ 'haproxy.router.openshift.io/timeout': '120m' });
    expect(route.spec).toEqual({ to: { kind: 'Service', name: UI }, port: { targetPort: 8080 }, tls: { termination: 'edge', insecureEdgeTerminationPolicy: 'Redirect' } });
    expect(find(render('A', { ui: { route: { enabled: false } } }, { apiVersions: ['route.openshift.io/v1'] }), 'Route')).toBeUndefined();
    // the router matches the pods' endpoints: a numeric targetPort is the UI container port
    const moved = get(render('B', { ui: { service: { ports: { port: 80, targetPort: 8081 } } } }, { apiVersions: ['route.openshift.io/v1'] }), 'Route');
    expect(moved.spec.port).toEqual({ targetPort: 8081 });
  });

  it('httproute-requirements: the route is a gateway.networking.k8s.io/v1 HTTPRoute attached to the Gateways in parentRefs', () => {
    const parentRefs = [{ name: 'public', namespace: 'gateways', sectionName: 'https' }];
    const hr = get(render('A', { ui: { httpRoute: { enabled: true, parentRefs } } }), 'HTTPRoute');
    expect(hr.apiVersion).toBe('gateway.networking.k8s.io/v1');
    expect(hr.spec.parentRefs).toEqual(parentRefs);
    expect(find(render('A', { ui: { httpRoute: { enabled: false, parentRefs } } }), 'HTTPRoute')).toBeUndefined();
  });

  it('httproute-default-backend / httproute-labels-merge', () => {
    const hr = get(render('B', { ui: { httpRoute: { enabled: true, labels: { gw: 'public' }, parentRefs: [{ name: 'gw' }], rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }, { backendRefs: [{ name: 'x', port: 1 }] }] } } }), 'HTTPRoute');
    expect(hr.metadata.labels).toMatchObject({ gw: 'public', 'app.kubernetes.io/component': 'ui' });
    expect(hr.spec.rules).toEqual([
      { backendRefs: [{ group: '', kind: 'Service', name: UI, port: 8080, weight: 1 }], matches: [{ path: { type: 'PathPrefix', value: '/' } }] },
      { backendRefs: [{ name: 'x', port: 1 }] },
    ]);
    expect(find(render('B'), 'HTTPRoute')).toBeUndefined();
  });
});

describe('providers, platform glue, extraObjects', () => {
  it('providers-default-selects-block / provider-credentials: the ModelConfig comes from the selected block', () => {
    const mc = get(render('A', { providers: { default: 'providerD' } }), 'ModelConfig');
    expect(mc.spec).toMatchObject({ provider: 'ProviderD', providerD: { host: 'host.docker.internal:11434', options: { num_ctx: '64000' } } });
    expect(mc.spec.apiKeySecret).toBeUndefined();
    expect(get(render('B'), 'ModelConfig').spec).toMatchObject({ provider: 'ProviderB', apiKeySecret: 'agentplat-providerb', apiKeySecretKey: 'PROVIDERB_API_KEY' });
  });

  it('provider-block-enum: providers.<block>.provider takes the ModelConfig provider enum and becomes spec.provider of the ModelConfig', () => {
    const crd = chartCrdDocs().find((d) => (d.object as any).spec.names.kind === 'ModelConfig')!.object as any;
    const crdEnum: string[] = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.provider.enum;
    expect(crdEnum.length).toBeGreaterThan(1);
    for (const rev of ['A', 'B'] as const) {
      const schema = JSON.parse(readFileSync(new URL(`../../schemas/values-${rev.toLowerCase()}.schema.json`, import.meta.url), 'utf8'));
      const providers = (defaultsSource(rev).data as any).providers as Record<string, any>;
      const blocks = Object.keys(providers).filter((k) => k !== 'default' && k !== 'annotations');
      expect(blocks.length, rev).toBeGreaterThan(4);
      for (const block of blocks) {
        const declared = schema.properties.providers.properties[block].properties.provider;
        expect(declared.enum, `${rev} ${block}`).toEqual(crdEnum);
        expect(crdEnum, `${rev} ${block}`).toContain(providers[block].provider);
        const mc = get(render(rev, { providers: { default: block } }), 'ModelConfig');
        expect(mc.spec.provider, `${rev} ${block}`).toBe(providers[block].provider);
      }
    }
  });

  it('providers-annotations: on the ModelConfig only when set', () => {
    expect(get(render('B'), 'ModelConfig').metadata.annotations).toBeUndefined();
    expect(get(render('B', { providers: { annotations: { a: 'b' } } }), 'ModelConfig').metadata.annotations).toEqual({ a: 'b' });
  });

  it('a provider Secret only when the selected block has a non-empty inline apiKey', () => {
    expect(find(render('B'), 'Secret', 'agentplat-providerb')).toBeUndefined();
    expect(find(render('B', { providers: { providerB: { apiKey: '' } } }), 'Secret', 'agentplat-providerb')).toBeUndefined();
    const s = get(render('B', { providers: { providerB: { apiKey: 'sk-1' } } }), 'Secret', 'agentplat-providerb');
    expect(s.data).toEqual({ PROVIDERB_API_KEY: Buffer.from('sk-1').toString('base64') });
  });

  it('the tools RemoteMCPServer follows the release name, the tools fullname and namespaceOverride', () => {
    const docs = render('B', { namespaceOverride: 'platform' }, { releaseName: 'prod', releaseNamespace: 'ns1' });
    const rs = get(docs, 'RemoteMCPServer', 'prod-tool-server');
    expect(rs.metadata.namespace).toBe('platform');
    expect(rs.spec).toEqual({ description: 'Official agentplat tool server', url: 'http://prod-tools.platform:8084/mcp', timeout: '30s', sseReadTimeout: '5m0s' });
    expect(find(render('B', { 'agentplat-tools': { enabled: false } }), 'RemoteMCPServer', 'agentplat-tool-server')).toBeUndefined();
  });

  it('cross-object names are computed from the release (built-in prompts, tool server)', () => {
    const ctx = buildRenderContext({}, { revision: 'B', releaseName: 'prod', releaseNamespace: 'x', apiVersions: [] });
    expect(builtinPromptsName(ctx)).toBe('prod-builtin-prompts');
    expect(toolServerName(ctx)).toBe('prod-tool-server');
    expect(get(render('B', {}, { releaseName: 'prod' }), 'ConfigMap', 'prod-builtin-prompts').metadata.labels['agentplat.dev/prompt-library']).toBe('true');
  });

  it('the authproxy sign-in template ConfigMap renders only with authproxy.enabled', () => {
    expect(find(render('B'), 'ConfigMap', 'agentplat-authproxy-templates')).toBeUndefined();
    expect(get(render('B', { authproxy: { enabled: true } }), 'ConfigMap', 'agentplat-authproxy-templates').data['sign_in.html']).toContain('/login');
  });

  it('extra-objects-templating: each entry is one document, no labels added', () => {
    const docs = render('B', { extraObjects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '{{ .Release.Name }}-x', namespace: 'a' } }, 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: b\n'] }, { releaseName: 'prod' });
    const extra = docs.filter((d) => d.source === 'agentplat/templates/extra-objects.yaml').map((d) => d.object);
    expect(extra).toEqual([
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'b' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'prod-x', namespace: 'a' } },
    ]);
  });

  it('extraObjects without a namespace: a namespaced kind gets the chart namespace, a cluster-scoped or unknown kind none', () => {
    const docs = render(
      'B',
      {
        namespaceOverride: 'tenant',
        extraObjects: [
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } },
          'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata:\n  name: sm\n',
          { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'cr' } },
          { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } },
        ],
      },
      { releaseName: 'prod' },
    );
    const extra = Object.fromEntries(docs.filter((d) => d.source === 'agentplat/templates/extra-objects.yaml').map((d) => [d.object.kind, d.object.metadata.namespace]));
    expect(extra).toEqual({ ConfigMap: 'tenant', ServiceMonitor: 'tenant', ClusterRole: undefined, Widget: undefined });
  });

  it('two objects with the same kind, namespace and name are an internal error, never silently both printed', () => {
    expect(() => render('B', { extraObjects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CTRL, namespace: 'default' } }] })).toThrow(DuplicateObjectError);
  });
});

describe('ordering', () => {
  it('install order: CRDs, ServiceAccounts, Secrets, ConfigMaps, ClusterRoles, ClusterRoleBindings, Roles, RoleBindings, Services, Deployments, then the rest', () => {
    const order = ['CustomResourceDefinition', 'ServiceAccount', 'Secret', 'ConfigMap', 'PersistentVolumeClaim', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'Service', 'Deployment'];
    const seen = render('B', { controller: { replicas: 2, pdb: { enabled: true } } }).map((d) => d.object.kind);
    const ranks = seen.map((k) => (order.includes(k) ? order.indexOf(k) : order.length));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    // The rest, by kind name, after the workloads.
    const rest = seen.slice(seen.lastIndexOf('Deployment') + 1);
    expect(rest).toEqual([...rest].sort());
    expect(rest).toContain('PodDisruptionBudget');
  });
});
