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
  'crd/selector-mismatch': "A workload's spec.selector must be a valid label selector, not empty, and select its own pod template's labels; a Job's only with manualSelector (the API server's Go validation)",
  'crd/containers': "Containers must have a DNS-1123 label as name, unique in their pod, and an image (the API server's Go validation)",
  'crd/ports': "Port numbers must be 1-65535, port names valid and unique, and a Service's ports named when it has several (the API server's Go validation)",
  'crd/restart-policy': "A pod template's restartPolicy must be Always for workloads, and OnFailure or Never (set) for Jobs and CronJobs (the API server's Go validation)",
  'crd/volumes': "Volume names must be DNS-1123 labels, unique in their pod, and every volume mount must name a volume of the pod (the API server's Go validation)",
  'crd/field-combination': "Fields the API server takes only apart must not be set together: a PodDisruptionBudget's minAvailable and maxUnavailable, an env var's value and valueFrom, a Recreate strategy's rollingUpdate, a key in a ConfigMap's data and binaryData, a ClusterIP Service's nodePort or externalTrafficPolicy",
  'crd/cronjob': "A CronJob's schedule must be a cron schedule (the API server's Go validation)",
  'crd/value': "Values the API server's Go validation takes where the OpenAPI states no rule: counts not negative, probe timings, file modes, ids, HPA replicas, RBAC kinds and rules, names of referenced objects, label selectors, ConfigMap and Secret keys, downward-API field paths, a Deployment's progress deadline, Ingress hosts, paths and backend names, typed Secrets' keys, a PodDisruptionBudget's minAvailable and maxUnavailable",
  'crd/resources': "A container's resource names must be standard or domain-qualified, quantities not negative, requests not above limits, extended resources whole and requested at their limit (the API server's Go validation)",
  'crd/nothing-checked': 'A run must check at least one resource (--allow-empty lets an empty run pass)',
  'crd/stored-version': "With --cluster, every version in a CRD's status.storedVersions must be served by the target revision's CRD (the API server refuses the CRD update otherwise)",
} as const;

export type CrdRuleId = keyof typeof CRD_RULES;

/** The rule table as the formatters take it (id → description). */
export function crdRuleCatalog(): Map<string, string> {
  return new Map(Object.entries(CRD_RULES));
}
