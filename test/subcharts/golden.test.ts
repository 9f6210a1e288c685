// Golden outputs of the sub-charts (fixtures/subcharts/<case>.golden.yaml): every object whose
// source is a sub-chart, plus the main-chart objects that exist for a sub-chart's sake.
// Regenerate after an intended change and read the diff like code:
//   UPDATE_GOLDEN=1 npx vitest run test/subcharts/golden.test.ts
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { lintValues } from '../../src/lint/lint.ts';
import { renderChart } from '../../src/render/render.ts';
import { toYaml } from '../../src/render/manifests.ts';
import { expectGolden } from '../helpers/golden.ts';
import { expectValidK8sObjects } from '../helpers/k8s-schema.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { substrateComponent } from '../../src/render/components/substrate.ts';
import { caseApiVersions, ctxFor, render as subchartRender } from './helpers.ts';

const DIR = join(import.meta.dirname, '..', '..', 'fixtures', 'subcharts');
const GLUE = /^agentplat\/templates\/(authproxy-templates|substrate-workerpool|substrate-api-rbac|toolserver-agentplat)\.yaml$/;

function renderCase(name: string, revision: Revision) {
  const text = readFileSync(join(DIR, `${name}.values.yaml`), 'utf8');
  const parsed = parseValuesText(text, `${name}.values.yaml`);
  if (!parsed.source) throw new Error(parsed.problems[0]?.message);
  const apiVersions = caseApiVersions(DIR, name);
  const lint = lintValues({ revision, layers: [parsed.source], releaseNamespace: 'agentplat', apiVersions });
  expect(lint.problems.filter((p) => p.severity === 'error')).toEqual([]);
  const docs = renderChart(lint.layered.values, {
    revision,
    releaseName: 'agentplat',
    releaseNamespace: 'agentplat',
    apiVersions,
    skipCrds: true,
  }).filter((d) => d.source.startsWith('agentplat/charts/') || GLUE.test(d.source));
  return { docs, yaml: toYaml(docs) };
}

function golden(name: string, yaml: string): void {
  expectGolden(join(DIR, `${name}.golden.yaml`), yaml);
}

const kinds = (docs: { object: { kind: string; metadata: { name: string } } }[]) => docs.map((d) => `${d.object.kind}/${d.object.metadata.name}`);

describe('sub-chart golden outputs', () => {
  it('subchart-surface (B): the sub-charts own keys (mirrored, narrowed, traced tools server on its own namespace and port; scoped HA operator; dashboards credentials from a Secret)', () => {
    const { docs, yaml } = renderCase('surface-b', 'B');
    golden('surface-b', yaml);
    expect(kinds(docs)).toContain('ServiceMonitor/agentplat-tools');
    expect(kinds(docs)).not.toContain('Secret/agentplat-dashboards-mcp');
  });

  it('5.2 authproxy with config.existingSecret (B): no proxy Secret, env from the named Secret, extraEnv evaluated', () => {
    const { docs, yaml } = renderCase('authproxy-existing-secret', 'B');
    golden('authproxy-existing-secret', yaml);
    expect(kinds(docs).filter((k) => k.startsWith('Secret/'))).toEqual(['Secret/agentplat-dashboards-mcp']);
    const dep = docs.find((d) => d.object.kind === 'Deployment' && d.object.metadata.name === 'agentplat-authproxy')!.object as any;
    const env = Object.fromEntries(dep.spec.template.spec.containers[0].env.map((e: any) => [e.name, e.value ?? e.valueFrom.secretKeyRef.name]));
    expect(env).toMatchObject({ OAUTH2_PROXY_CLIENT_ID: 'oidc-credentials', UPSTREAM_URL: 'http://agentplat-ui.agentplat.svc:8080', OIDC_ISSUER_URL: 'https://sso.example.com/realms/platform' });
    expect(env.SIGNIN_TEMPLATE_CHECKSUM).toMatch(/^[0-9a-f]{64}$/);
  });

  it('5.2 authproxy with inline secrets (A): the proxy Secret holds client-id, client-secret and cookie-secret', () => {
    const { docs, yaml } = renderCase('authproxy-inline', 'A');
    golden('authproxy-inline', yaml);
    const secret = docs.find((d) => d.object.kind === 'Secret' && d.object.metadata.name === 'agentplat-authproxy')!.object as any;
    expect(Object.keys(secret.data).sort()).toEqual(['client-id', 'client-secret', 'cookie-secret']);
  });

  it('2.3 substrate on with a worker pool (B): WorkerPool, env-source RBAC and the substrate API server with its args', () => {
    const { docs, yaml } = renderCase('substrate-worker-pool', 'B');
    golden('substrate-worker-pool', yaml);
    expect(kinds(docs)).toEqual(expect.arrayContaining(['WorkerPool/agentplat-default', 'Role/agentplat-substrate-api-env-sources', 'Deployment/agentplat-substrate-api-server']));
    const api = docs.find((d) => d.object.kind === 'Deployment' && d.object.metadata.name === 'agentplat-substrate-api-server')!.object as any;
    expect(api.spec.template.spec.containers[0].args).toEqual([
      '--template-resync-interval=250ms',
      '--credential-provider-policies=/etc/substrate/credential-provider/namespace-policies.json',
    ]);
    const cm = docs.find((d) => d.object.kind === 'ConfigMap' && d.object.metadata.name === 'agentplat-substrate-credential-provider')!.object as any;
    expect(JSON.parse(cm.data['namespace-policies.json'])).toEqual([{ namespace: 'team-a', allowedSecrets: ['registry-credentials'] }]);
  });

  it('substrate-worker-pool: the WorkerPool names its worker image workerImage in revision B', () => {
    const { docs } = renderCase('substrate-worker-pool', 'B');
    const pool = docs.find((d) => d.object.kind === 'WorkerPool')!.object as any;
    expect(pool.spec.workerImage).toBe('registry.example.com/substrate/worker:v0.0.9');
    expect(pool.spec.sandboxClasses).toEqual([{ name: 'gvisor' }]);
    expect(pool.spec).not.toHaveProperty('image');
    expect(pool.spec).not.toHaveProperty('ateomImage');
    expect(pool.spec).not.toHaveProperty('sandboxClass');
  });

  it('substrate-worker-pool: the WorkerPool names its worker image ateomImage and keeps sandboxClass in revision A', () => {
    const docs = substrateComponent.render(
      ctxFor('A', {
        controller: { substrate: { enabled: true } },
        substrateWorkerPool: { create: true, ateomImage: 'registry.example.com/substrate/worker:v0.0.9', sandboxClass: 'microvm' },
      }),
    );
    const pool = docs.find((d) => d.object.kind === 'WorkerPool')!.object as any;
    expect(pool.spec).toEqual({ replicas: 1, ateomImage: 'registry.example.com/substrate/worker:v0.0.9', sandboxClass: 'microvm' });
  });

  it('2.3 substrate.enabled: the env-source RoleBindings also bind the API server account the substrate sub-chart creates', () => {
    for (const rev of ['A', 'B'] as const) {
      const values = { controller: { substrate: { enabled: true } }, substrate: { enabled: true }, namespaceOverride: 'team-x' };
      const ctx = ctxFor(rev, values, { release: 'prod', namespace: 'ns1' });
      const created = subchartRender(rev, values, { release: 'prod', namespace: 'ns1' }).find((d) => d.object.kind === 'ServiceAccount' && d.source.startsWith('agentplat/charts/substrate/'))!.object.metadata;
      expect({ name: created.name, namespace: created.namespace }).toEqual({ name: 'prod-substrate-api-server', namespace: 'team-x' });
      const bindings = substrateComponent.render(ctx).filter((d) => d.object.kind === 'RoleBinding');
      expect(bindings).toHaveLength(1);
      expect((bindings[0]!.object as any).subjects).toEqual([
        { kind: 'ServiceAccount', name: 'substrate-api-server', namespace: 'substrate-system' },
        { kind: 'ServiceAccount', name: created.name, namespace: created.namespace },
      ]);
      // without the bundled sub-chart only the configured (default) server account is bound
      const external = substrateComponent.render(ctxFor(rev, { controller: { substrate: { enabled: true } } }, { release: 'prod', namespace: 'ns1' }));
      expect((external.find((d) => d.object.kind === 'RoleBinding')!.object as any).subjects).toEqual([{ kind: 'ServiceAccount', name: 'substrate-api-server', namespace: 'substrate-system' }]);
    }
  });

  it('authproxy-production (B): an HA, autoscaled, sized, mirrored proxy with redis sessions, Ingress, HTTPRoute, NetworkPolicy and ServiceMonitor, all from the proxy chart\'s own keys', () => {
    const { docs, yaml } = renderCase('authproxy-production', 'B');
    golden('authproxy-production', yaml);
    expect(kinds(docs).sort()).toEqual([
      'ConfigMap/agentplat-authproxy',
      'ConfigMap/agentplat-authproxy-templates',
      'Deployment/agentplat-authproxy',
      'HTTPRoute/agentplat-authproxy',
      'HorizontalPodAutoscaler/agentplat-authproxy',
      'Ingress/agentplat-authproxy',
      'NetworkPolicy/agentplat-authproxy',
      'PodDisruptionBudget/agentplat-authproxy',
      'Service/agentplat-authproxy',
      'ServiceAccount/agentplat-authproxy',
      'ServiceMonitor/agentplat-authproxy',
    ]);
    expectValidK8sObjects(docs.map((d) => d.object));
  });

  it('2.11 every sub-chart off (A): no sub-chart object and no tool-server registration', () => {
    const { docs, yaml } = renderCase('all-off', 'A');
    golden('all-off', yaml);
    expect(docs).toEqual([]);
  });

  it('2.11 defaults of revision A: the ten bundled agents, mcpop, tools, dashboards MCP', () => {
    const { docs, yaml } = renderCase('defaults-a', 'A');
    golden('defaults-a', yaml);
    const agents = docs.filter((d) => d.object.kind === 'Agent').map((d) => d.object.metadata.name);
    expect(agents.sort()).toEqual(
      ['rollouts', 'network-debug', 'network-manager', 'network-policy', 'package-manager', 'service-mesh', 'cluster', 'gateway', 'observability', 'query-language'].map((a) => `${a}-agent`).sort(),
    );
    // the file is what it says: parseable documents, one per object
    expect(yaml.split(/^---$/m).filter((s) => parse(s) !== null)).toHaveLength(docs.length);
  });
});
