// Every object rendered for both revisions' defaults and every golden case validates against
// the Kubernetes schema of its kind with unknown fields rejected (test/helpers/k8s-schema.ts);
// our own kinds validate against the CRDs the chart ships.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { objectsOf } from '../helpers/objects.ts';
import { registerChartSchemas } from '../helpers/chart-schemas.ts';
import { expectValidK8sObjects, k8sSchemaIssues } from '../helpers/k8s-schema.ts';
import { GOLDEN_CASES } from './_golden.ts';
import { render } from './_render.ts';

registerChartSchemas();

describe('rendered objects validate against their Kubernetes schema (unknown fields rejected)', () => {
  for (const revision of ['A', 'B'] as const) {
    it(`agentplat render --revision ${revision} on defaults (CRDs and sub-charts included)`, () => {
      expectValidK8sObjects(render(revision).map((d) => d.object));
    });
  }

  it('with every optional object switched on (metrics, ServiceMonitor, PDBs, routes, leader election, substrate, authproxy glue, provider Secret)', () => {
    const docs = render(
      'B',
      {
        controller: {
          replicas: 2,
          metrics: { enabled: true, serviceMonitor: { enabled: true, scraperServiceAccount: { name: 'prom' } } },
          pdb: { enabled: true, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
          substrate: { enabled: true },
        },
        substrateWorkerPool: { create: true, workerImage: 'ghcr.io/example/worker:1.0' },
        ui: { pdb: { enabled: true }, httpRoute: { enabled: true, parentRefs: [{ name: 'gw' }] } },
        authproxy: { enabled: true },
        providers: { providerB: { apiKey: 'sk-test' } },
      },
      { apiVersions: ['monitoring.coreos.com/v1', 'route.openshift.io/v1'] },
    );
    const kinds = new Set(docs.map((d) => d.object.kind));
    for (const k of ['ServiceMonitor', 'PodDisruptionBudget', 'Route', 'HTTPRoute', 'Role', 'WorkerPool']) expect(kinds, k).toContain(k);
    expectValidK8sObjects(docs.map((d) => d.object));
  });

  for (const name of GOLDEN_CASES) {
    it(`golden ${name}`, () => {
      const text = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'render', name, 'expected.yaml'), 'utf8');
      const objects = objectsOf<unknown>(text);
      expect(objects.length).toBeGreaterThan(0);
      expectValidK8sObjects(objects);
    });
  }

  it('a misspelled field in a rendered object fails (the check is not vacuous)', () => {
    const deployment = render('B').find((d) => d.object.kind === 'Deployment' && d.object.metadata.name === 'agentplat-controller')!.object as any;
    const broken = structuredClone(deployment);
    broken.spec.template.spec.containers[0].readinesProbe = broken.spec.template.spec.containers[0].readinessProbe;
    expect(k8sSchemaIssues(deployment)).toEqual([]);
    expect(k8sSchemaIssues(broken).map((i) => i.path)).toEqual(['/spec/template/spec/containers/0/readinesProbe']);
  });
});
