// The schemas of the kinds the chart renders that no model package knows: our CRDs (from the CRDs
// the chart ships) and the substrate's WorkerPool. Registered once per test process.
import { chartCrdDocs, mcpopCrdDocs } from '../../src/crds/index.ts';
import { registerCrdSchemas, registerK8sSchema } from './k8s-schema.ts';

let done = false;

export function registerChartSchemas(): void {
  if (done) return;
  done = true;
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
}
