// Every object rendered for both revisions' defaults and every golden case validates against
// the Kubernetes schema of its kind with unknown fields rejected (test/helpers/k8s-schema.ts);
// our own kinds validate against the CRDs the chart ships.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { chartCrdDocs, mcpopCrdDocs } from '../../src/crds/index.ts';
import { expectValidK8sObjects, k8sSchemaIssues, registerCrdSchemas, registerK8sSchema } from '../helpers/k8s-schema.ts';
import { GOLDEN_CASES } from './_golden.ts';
import { render } from './_render.ts';

registerCrdSchemas([...chartCrdDocs(), ...mcpopCrdDocs()].map((d) => d.object));
// The substrate's WorkerPool (external API group, subcharts-facts 6.2): the CRD of revision A's
// era takes `ateomImage` + `sandboxClass`, the later one (revision B) `workerImage` + a one-item
// `sandboxClasses` list; a pool must be one or the other, never a mix.
const either = (fields: string[]) => ({ anyOf: fields.map((f) => ({ required: [f] })) });
registerK8sSchema('ate.dev/v1alpha1', 'WorkerPool', {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['replicas'],
      properties: {
        replicas: { type: 'integer', minimum: 0 },
        ateomImage: { type: 'string', minLength: 1 },
        sandboxClass: { type: 'string', enum: ['gvisor', 'microvm'] },
        workerImage: { type: 'string', minLength: 1 },
        sandboxClasses: {
          type: 'array',
          minItems: 1,
          maxItems: 1,
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, configRef: { type: 'object', properties: { name: { type: 'string' } } } } },
        },
        template: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
      oneOf: [
        { required: ['ateomImage'], not: either(['workerImage', 'sandboxClasses']) },
        { required: ['workerImage', 'sandboxClasses'], not: either(['ateomImage', 'sandboxClass']) },
      ],
    },
  },
});

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
      const objects = parseAllDocuments(text).map((d) => d.toJS());
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
