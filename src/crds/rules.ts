// The rule ids of `agentplat validate`, with the sentence that describes each. The ids are a
// public contract (SARIF rule tables, JUnit case names, JSON `rule`): a rename breaks the
// code-scanning history of every user, so ids are only ever added.

export const CRD_RULES = {
  'crd/yaml-syntax': 'The file must be readable YAML: no syntax error, duplicate key or endless alias',
  'crd/not-an-object': 'Each document must be a Kubernetes object (a map)',
  'crd/missing-kind': 'Each object must have a kind',
  'crd/missing-api-version': 'Each object must have an apiVersion',
  'crd/unknown-kind': 'An agentplat.dev object must be of a kind the CRDs define',
  'crd/unknown-version': 'An agentplat.dev object must use an API version the CRDs serve',
  'crd/unknown-field': "Fields must be declared in the CRD's schema (the API server refuses unknown fields)",
  'crd/schema': "Field values must match the CRD's OpenAPI schema (types, formats, ranges, required fields)",
  'crd/cel': "The CRD's CEL validation rules (x-kubernetes-validations) must hold",
  'crd/metadata': "Object metadata must pass the API server's rules: names, generateName, namespaces, label and annotation keys and values, annotation size, owner references",
  'crd/unknown-group': 'An apiVersion whose group is a near miss of agentplat.dev is an error, not a document of another API',
  'crd/no-schema': 'With --strict, a document of a kind agentplat has no schema for is an error (it is skipped with a note otherwise)',
  'crd/selector-mismatch': "A workload's spec.selector must not be empty and must select its own pod template's labels (the API server's Go validation)",
  'crd/container-name': "Container names must be DNS-1123 labels, unique in their pod (the API server's Go validation)",
  'crd/port-range': "Port numbers must be 1-65535 and port names IANA service names (the API server's Go validation)",
  'crd/pod-template': "A pod template's containers name an image, volume mounts name a volume of the pod, and the restart policy suits the kind: Always for workloads, OnFailure or Never for Jobs (the API server's Go validation)",
  'crd/rbac-binding': "A RoleBinding's or ClusterRoleBinding's roleRef and subjects must be of the kinds and API groups the API server takes (its Go validation)",
  'crd/nothing-checked': 'A run must check at least one resource (--allow-empty lets an empty run pass)',
} as const;

export type CrdRuleId = keyof typeof CRD_RULES;

/** The rule table as the formatters take it (id → description). */
export function crdRuleCatalog(): Map<string, string> {
  return new Map(Object.entries(CRD_RULES));
}
