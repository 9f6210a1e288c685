// Names the validator needs without loading the model or ajv: the API group, and the $id under
// which each core type's JSON schema is registered.
export const GROUP = 'agentplat.dev';

/** The $id of a core type's schema; validators reference core types by it. */
export const coreUri = (id: string): string => `https://agentplat.dev/schemas/k8s/${id}.json`;

/**
 * The API server decodes a JSON integer into a signed 64-bit number, and any other number into a
 * float that counts as an integer only below 2^53: an integer field takes whole numbers in
 * [-2^63, 2^63). (2^63 - 1 itself reads as 2^63 in JavaScript, one past the end.)
 */
export const INT64_BOUND = 2 ** 63;
