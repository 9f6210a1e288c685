// Names the validator needs without loading the model or ajv: the API group, and the $id under
// which each core type's JSON schema is registered.
export const GROUP = 'agentplat.dev';

/** The $id of a core type's schema; validators reference core types by it. */
export const coreUri = (id: string): string => `https://agentplat.dev/schemas/k8s/${id}.json`;
