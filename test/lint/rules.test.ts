// Each cross-field rule of the values document, triggered by a fixture under fixtures/lint/ and
// checked for rule id, values path, file, line and column.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Problem } from '../../src/problems/problem.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';

function lintFixture(name: string, revision: Revision, extra: { kubeVersion?: string; releaseNamespace?: string; apiVersions?: string[] } = {}): Problem[] {
  const file = join('fixtures/lint', name);
  const parsed = parseValuesText(readFileSync(file, 'utf8'), file);
  expect(parsed.problems).toEqual([]);
  return lintValues({ revision, layers: [parsed.source!], ...extra }).problems;
}

interface Case {
  apiVersions?: string[];
  name: string;
  fixture: string;
  revision: Revision;
  rule: string;
  severity: Problem['severity'];
  path: string;
  line: number;
  column: number;
  kubeVersion?: string;
  releaseNamespace?: string;
  hint?: RegExp;
}

const cases: Case[] = [
  { name: 'watch-scope-rule-b: a watched namespace without a role is an error (it would loop on Forbidden)', fixture: 'watch-scope-b.yaml', revision: 'B', rule: 'values/watch-scope', severity: 'error', path: 'controller.watchNamespaces[1]', line: 7, column: 7 },
  { name: 'rbac [B]: rbac.namespaces overrides global.watchNamespaces for the watch scope', fixture: 'watch-scope-rbac-b.yaml', revision: 'B', rule: 'values/watch-scope', severity: 'error', path: 'controller.watchNamespaces[0]', line: 7, column: 21 },
  { name: 'rbac [B]: rbac key present overrides global.watchNamespaces (info)', fixture: 'watch-scope-rbac-b.yaml', revision: 'B', rule: 'values/rbac-overrides-global', severity: 'info', path: 'rbac.namespaces', line: 5, column: 3 },
  { name: 'rbac: namespaced roles must include the release namespace', fixture: 'watch-scope-rbac-b.yaml', revision: 'B', rule: 'values/rbac-release-namespace', severity: 'error', path: 'rbac.namespaces', line: 5, column: 3, releaseNamespace: 'prod' },
  { name: 'rbac: clusterScoped was removed', fixture: 'rbac-cluster-scoped.yaml', revision: 'A', rule: 'values/rbac-cluster-scoped-removed', severity: 'error', path: 'rbac.clusterScoped', line: 2, column: 3 },
  { name: 'pdb: minAvailable and maxUnavailable are exclusive (ui)', fixture: 'pdb-both-thresholds.yaml', revision: 'B', rule: 'values/pdb-thresholds-exclusive', severity: 'error', path: 'ui.pdb.minAvailable', line: 4, column: 5, hint: /maxUnavailable: null/ },
  { name: 'pdb: enabled without any threshold', fixture: 'pdb-no-threshold.yaml', revision: 'A', rule: 'values/pdb-threshold-missing', severity: 'error', path: 'controller.pdb', line: 2, column: 3 },
  { name: 'pdb: minAvailable 1 on one replica blocks every voluntary eviction (warning)', fixture: 'pdb-min-available-one-replica.yaml', revision: 'B', rule: 'values/pdb-blocks-eviction', severity: 'warning', path: 'controller.pdb.minAvailable', line: 5, column: 5, hint: /replicas/ },
  { name: 'pdb: unhealthyPodEvictionPolicy needs Kubernetes 1.27 when --kube-version is given', fixture: 'pdb-eviction-policy.yaml', revision: 'B', rule: 'values/pdb-eviction-policy-kube-version', severity: 'error', path: 'controller.pdb.unhealthyPodEvictionPolicy', line: 4, column: 5, kubeVersion: '1.26' },
  { name: 'substrate-projections-kube-version [B]: the substrate wiring needs Kubernetes 1.37 (clusterTrustBundle and podCertificate projections) when --kube-version is given', fixture: 'substrate-enabled.yaml', revision: 'B', rule: 'values/substrate-projections-kube-version', severity: 'error', path: 'controller.substrate.enabled', line: 3, column: 5, kubeVersion: '1.36.3', hint: /--kube-version 1\.37.*controller\.substrate\.enabled: false.*ClusterTrustBundleProjection and PodCertificateRequest/ },
  { name: 'metrics: bindAddress "0" disables metrics although enabled is true', fixture: 'metrics-bind-address-zero.yaml', revision: 'A', rule: 'values/metrics-disabled-by-bind-address', severity: 'warning', path: 'controller.metrics.bindAddress', line: 4, column: 5 },
  { name: 'metrics [B]: serviceMonitor.enabled requires controller.metrics.enabled', fixture: 'service-monitor-without-metrics-b.yaml', revision: 'B', rule: 'values/service-monitor-requires-metrics', severity: 'error', path: 'controller.metrics.serviceMonitor.enabled', line: 4, column: 7 },
  { name: 'metrics [B]: the ServiceMonitor needs the monitoring API declared (no-op otherwise, warned)', fixture: 'service-monitor-b.yaml', revision: 'B', rule: 'values/service-monitor-needs-api', severity: 'warning', path: 'controller.metrics.serviceMonitor.enabled', line: 5, column: 7, apiVersions: ['route.openshift.io/v1'] },
  { name: 'stream-timeout-vs-proxy-read: ui.streamTimeoutSeconds below ui.edge.proxyReadTimeout is a warning', fixture: 'stream-timeout.yaml', revision: 'A', rule: 'values/stream-timeout-below-proxy-read', severity: 'warning', path: 'ui.streamTimeoutSeconds', line: 2, column: 3 },
  { name: 'httproute-requirements: ui.httpRoute.enabled requires parentRefs', fixture: 'httproute-no-parents.yaml', revision: 'B', rule: 'values/httproute-parent-refs', severity: 'error', path: 'ui.httpRoute.enabled', line: 3, column: 5 },
  { name: 'httproute-requirements: with declared cluster APIs lacking gateway.networking.k8s.io/v1 the HTTPRoute is warned about', fixture: 'httproute-no-parents.yaml', revision: 'B', rule: 'values/httproute-needs-api', severity: 'warning', path: 'ui.httpRoute.enabled', line: 3, column: 5, apiVersions: ['monitoring.coreos.com/v1'] },
  { name: 'providers: providers.default must name an existing block', fixture: 'providers-default-missing.yaml', revision: 'B', rule: 'values/providers-default', severity: 'error', path: 'providers.default', line: 2, column: 3 },
  { name: "providers: a block's config must match its provider", fixture: 'provider-block-mismatch.yaml', revision: 'A', rule: 'values/provider-block-mismatch', severity: 'error', path: 'providers.providerD.provider', line: 3, column: 5 },
  { name: "auth [B]: 'unsecure' is revision A's word", fixture: 'auth-mode-a-word-in-b.yaml', revision: 'B', rule: 'values/auth-mode', severity: 'error', path: 'controller.auth.mode', line: 3, column: 5, hint: /revision A's word; revision B writes "insecure"/ },
  { name: "auth [A]: 'insecure' is revision B's word", fixture: 'auth-mode-b-word-in-a.yaml', revision: 'A', rule: 'values/auth-mode', severity: 'error', path: 'controller.auth.mode', line: 3, column: 5, hint: /revision B's word; revision A writes "unsecure"/ },
  { name: 'streaming-deprecated: controller.streaming is deprecated and has no effect (warning)', fixture: 'streaming-deprecated.yaml', revision: 'A', rule: 'values/streaming-deprecated', severity: 'warning', path: 'controller.streaming', line: 2, column: 3 },
  { name: 'database: no url, no urlFile and no bundled instance is an error', fixture: 'database-none.yaml', revision: 'B', rule: 'values/database-source', severity: 'error', path: 'database.rdb.bundled.enabled', line: 4, column: 7 },
  { name: 'database: urlFile wins over url', fixture: 'database-url-and-file.yaml', revision: 'A', rule: 'values/database-url-and-file', severity: 'warning', path: 'database.rdb.url', line: 3, column: 5 },
  { name: 'otel [B]: the OTLP endpoint is an http or https URL', fixture: 'otel-endpoint-b.yaml', revision: 'B', rule: 'values/otel-endpoint-url', severity: 'error', path: 'otel.exporter.otlp.endpoint', line: 4, column: 7 },
  { name: 'schema: unknown keys are errors with a did-you-mean hint', fixture: 'unknown-key.yaml', revision: 'B', rule: 'values/unknown-key', severity: 'error', path: 'controller.imagee', line: 3, column: 3, hint: /did you mean `image`/ },
  { name: 'schema: a revision-A key in revision B says where it exists', fixture: 'a-only-key-in-b.yaml', revision: 'B', rule: 'values/unknown-key', severity: 'error', path: 'controller.toolRefreshInterval', line: 2, column: 3, hint: /exists only in revision A/ },
  { name: 'schema: bundled agents exist only in revision A', fixture: 'bundled-agent-in-b.yaml', revision: 'B', rule: 'values/unknown-key', severity: 'error', path: 'cluster-agent', line: 1, column: 1, hint: /bundled agent of revision A/ },
  { name: 'schema: quantities use Kubernetes notation (128Mi, 50m)', fixture: 'quantity-format.yaml', revision: 'A', rule: 'values/schema', severity: 'error', path: 'controller.resources.limits.memory', line: 4, column: 7, hint: /Mi/ },
  { name: 'authproxy: enabled without client id, client secret and cookie secret (or an existing Secret) is an error; secrets are never generated', fixture: 'authproxy-no-secrets.yaml', revision: 'B', rule: 'values/authproxy-secret', severity: 'error', path: 'authproxy.config.clientID', line: 1, column: 1, hint: /existingSecret/ },
  { name: 'extraObjects: a template the engine cannot evaluate is an error naming the entry', fixture: 'extra-objects-bad-template.yaml', revision: 'A', rule: 'values/templated-values', severity: 'error', path: 'extraObjects[0].metadata.name', line: 5, column: 7 },
  { name: 'substrate [B]: a worker pool created by the chart needs workerImage', fixture: 'worker-pool-no-image.yaml', revision: 'B', rule: 'values/substrate-worker-image', severity: 'error', path: 'substrateWorkerPool.workerImage', line: 4, column: 1 },
  { name: 'substrate [A]: a worker pool created by the chart needs ateomImage', fixture: 'worker-pool-no-image.yaml', revision: 'A', rule: 'values/substrate-worker-image', severity: 'error', path: 'substrateWorkerPool.ateomImage', line: 4, column: 1 },
  { name: 'names: fullnameOverride must be a valid name (objects are named <fullname>-<suffix>)', fixture: 'bad-overrides.yaml', revision: 'B', rule: 'values/object-name', severity: 'error', path: 'fullnameOverride', line: 1, column: 1, hint: /acme-bad/ },
  { name: 'names: namespaceOverride must be a valid namespace name', fixture: 'bad-overrides.yaml', revision: 'A', rule: 'values/object-name', severity: 'error', path: 'namespaceOverride', line: 2, column: 1 },
  { name: 'pdb-threshold-format: a quoted count is neither an integer nor a percentage (the API server rejects "1")', fixture: 'pdb-threshold-digit-string.yaml', revision: 'A', rule: 'values/schema', severity: 'error', path: 'controller.pdb.maxUnavailable', line: 4, column: 5, hint: /without quotes/ },
  { name: 'ui [B]: basePath is a path prefix', fixture: 'base-path-b.yaml', revision: 'B', rule: 'values/base-path', severity: 'error', path: 'ui.basePath', line: 2, column: 3 },
];

describe('values rules', () => {
  for (const c of cases) {
    it(c.name, () => {
      const problems = lintFixture(c.fixture, c.revision, { kubeVersion: c.kubeVersion, releaseNamespace: c.releaseNamespace, apiVersions: c.apiVersions });
      const hit = problems.find((p) => p.rule === c.rule && p.path === c.path);
      expect(hit, JSON.stringify(problems, null, 1)).toBeDefined();
      expect(hit).toMatchObject({ severity: c.severity, file: join('fixtures/lint', c.fixture), line: c.line, column: c.column });
      if (c.hint) expect(hit!.hint).toMatch(c.hint);
    });
  }

  it('rbac [B]: an explicit empty rbac.namespaces restores cluster scope (no watch-scope error)', () => {
    const problems = lintFixture('rbac-empty-restores-cluster-b.yaml', 'B');
    expect(problems.filter((p) => p.rule === 'values/watch-scope')).toEqual([]);
  });

  it('metrics [B]: no ServiceMonitor warning once monitoring.coreos.com/v1 is declared', () => {
    expect(lintFixture('service-monitor-b.yaml', 'B', { apiVersions: ['monitoring.coreos.com/v1'] }).filter((p) => p.severity !== 'info')).toEqual([]);
  });

  it('auth-trusted-proxy-requirements-b: setting controller.auth.mode trusted-proxy reports values/trusted-proxy (info): a validating proxy in front, network isolation', () => {
    const parsed = parseValuesText('controller:\n  auth:\n    mode: trusted-proxy\n', 'trusted-proxy-b.yaml');
    const hits = lintValues({ revision: 'B', layers: [parsed.source!] }).problems.filter((p) => p.rule === 'values/trusted-proxy');
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ severity: 'info', path: 'controller.auth.mode', file: 'trusted-proxy-b.yaml', line: 3, column: 5 });
    expect(hits[0]!.message).toMatch(/validating proxy/);
    expect(hits[0]!.message).toMatch(/network/);
    const insecure = parseValuesText('controller:\n  auth:\n    mode: insecure\n', 'insecure-b.yaml');
    expect(lintValues({ revision: 'B', layers: [insecure.source!] }).problems.filter((p) => p.rule === 'values/trusted-proxy')).toEqual([]);
    expect(lintValues({ revision: 'B', layers: [] }).problems.filter((p) => p.rule === 'values/trusted-proxy')).toEqual([]);
  });

  it('pdb: the eviction policy is fine on Kubernetes 1.27', () => {
    expect(lintFixture('pdb-eviction-policy.yaml', 'B', { kubeVersion: '1.27' }).filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('substrate-projections-kube-version: no problem on Kubernetes 1.37, without --kube-version, or in revision A (a service-account token projection)', () => {
    const rule = (problems: Problem[]) => problems.filter((p) => p.rule === 'values/substrate-projections-kube-version');
    expect(rule(lintFixture('substrate-enabled.yaml', 'B', { kubeVersion: '1.37.0' }))).toEqual([]);
    expect(rule(lintFixture('substrate-enabled.yaml', 'B'))).toEqual([]);
    expect(rule(lintFixture('substrate-enabled.yaml', 'A', { kubeVersion: '1.27' }))).toEqual([]);
  });

  it('substrate-projections-kube-version: before the feature gates exist (1.28) the sources are unknown, and the hint offers no gate', () => {
    const [hit, ...more] = lintFixture('substrate-enabled.yaml', 'B', { kubeVersion: '1.28' }).filter((p) => p.rule === 'values/substrate-projections-kube-version');
    expect(more).toEqual([]);
    expect(hit!.message).toMatch(/does not know the clusterTrustBundle and podCertificate sources/);
    expect(hit!.hint).not.toMatch(/feature gate/);
  });

  describe('pdb-blocks-eviction: warns only when a budget lets no pod go down', () => {
    const eviction = (text: string) =>
      lintValues({ revision: 'B', layers: [parseValuesText(text, 'pdb.yaml').source!] }).problems.filter((p) => p.rule === 'values/pdb-blocks-eviction');
    const budget = (replicas: number, thresholds: string) => `controller:\n  replicas: ${replicas}\n  pdb:\n    enabled: true\n${thresholds}`;

    it('minAvailable 0 with 0 replicas blocks nothing', () => {
      expect(eviction(budget(0, '    maxUnavailable: null\n    minAvailable: 0\n'))).toEqual([]);
    });
    it('minAvailable 1 with 0 replicas blocks nothing (there is no pod to evict)', () => {
      expect(eviction(budget(0, '    maxUnavailable: null\n    minAvailable: 1\n'))).toEqual([]);
    });
    it('minAvailable 0 with replicas keeps every eviction possible', () => {
      expect(eviction(budget(3, '    maxUnavailable: null\n    minAvailable: 0\n'))).toEqual([]);
    });
    it('minAvailable "50%" of one replica rounds up to 1 and blocks (warning on minAvailable)', () => {
      expect(eviction(budget(1, '    maxUnavailable: null\n    minAvailable: "50%"\n'))).toMatchObject([{ severity: 'warning', path: 'controller.pdb.minAvailable', line: 6 }]);
    });
    it('minAvailable "50%" of four replicas keeps two up and blocks nothing', () => {
      expect(eviction(budget(4, '    maxUnavailable: null\n    minAvailable: "50%"\n'))).toEqual([]);
    });
    it('maxUnavailable 0 and "0%" with replicas block every eviction (warning on maxUnavailable)', () => {
      expect(eviction(budget(2, '    maxUnavailable: 0\n'))).toMatchObject([{ severity: 'warning', path: 'controller.pdb.maxUnavailable', line: 5 }]);
      expect(eviction(budget(2, '    maxUnavailable: "0%"\n'))).toMatchObject([{ path: 'controller.pdb.maxUnavailable' }]);
    });
    it('maxUnavailable "10%" of three replicas rounds up to 1 and blocks nothing', () => {
      expect(eviction(budget(3, '    maxUnavailable: "10%"\n'))).toEqual([]);
    });
  });

  it.each(['A', 'B'] as const)('defaults of revision %s lint clean', (revision) => {
    expect(lintValues({ revision, layers: [] }).problems.filter((p) => p.severity !== 'info')).toEqual([]);
  });
});
