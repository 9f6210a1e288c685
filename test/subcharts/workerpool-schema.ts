// JSON schemas of the substrate's WorkerPool (ate.dev/v1alpha1) as each revision's substrate
// version defines it: revision A's pool takes `ateomImage` and one `sandboxClass`; revision B's
// takes `workerImage` and a `sandboxClasses` list. Only the fields the chart may render.
const template = {
  type: 'object',
  properties: {
    nodeSelector: { type: 'object', additionalProperties: { type: 'string' } },
    tolerations: { type: 'array', maxItems: 16, items: { type: 'object' } },
    priorityClassName: { type: 'string' },
    nodeAffinity: { type: 'object' },
    resources: { type: 'object' },
  },
};

export function workerPoolSchema(revision: 'A' | 'B'): Record<string, unknown> {
  const spec =
    revision === 'A'
      ? {
          type: 'object',
          required: ['ateomImage', 'replicas'],
          properties: {
            replicas: { type: 'integer', minimum: 0 },
            ateomImage: { type: 'string', minLength: 1 },
            sandboxClass: { type: 'string', enum: ['gvisor', 'microvm'] },
            sandboxConfigName: { type: 'string' },
            template,
          },
        }
      : {
          type: 'object',
          required: ['workerImage', 'replicas'],
          properties: {
            replicas: { type: 'integer', minimum: 0 },
            workerImage: { type: 'string', minLength: 1 },
            sandboxClasses: {
              type: 'array',
              minItems: 1,
              maxItems: 1,
              items: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string', enum: ['gvisor', 'microvm'] }, configRef: { type: 'object', properties: { name: { type: 'string' } } } },
              },
            },
            template: {
              ...template,
              properties: { ...template.properties, labels: { type: 'object' }, annotations: { type: 'object' }, serviceAccountName: { type: 'string' } },
            },
          },
        };
  return {
    type: 'object',
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec },
  };
}
