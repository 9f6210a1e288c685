// The Kubernetes releases `validate --kube-version` has core schemas of (schemas/kubernetes/
// openapi.json), oldest first: the cluster suite's two. A test holds the data file and
// scripts/gen-k8s-openapi.mjs to this list. No data is read here: the CLI's help names them.
export const KUBE_VERSIONS = ['1.34', '1.37'] as const;
export const DEFAULT_KUBE_VERSION: string = KUBE_VERSIONS[KUBE_VERSIONS.length - 1]!;
