// Kubernetes versions the cluster suite runs against: the oldest and the newest release of
// k8s.io/kubernetes the Go module proxy serves (it serves nothing older than 1.34, so 1.27, the
// oldest version `--kube-version` gates on, cannot be built). AGENTPLAT_CLUSTER_VERSIONS
// (comma-separated) overrides the list.
export const OLDEST = '1.34.4';
export const NEWEST = '1.37.2';
export const VERSIONS: string[] = (process.env.AGENTPLAT_CLUSTER_VERSIONS ?? `${OLDEST},${NEWEST}`)
  .split(',')
  .map((v) => v.trim())
  .filter(Boolean);
