// Kubernetes versions the cluster suite runs against: the oldest and the newest release of
// k8s.io/kubernetes that can be built from the Go module proxy. Older releases of the module are
// served (1.27.16 among them, the oldest version `--kube-version` gates on), but not the staging
// modules kube-apiserver imports at their versions, so nothing older than 1.34 builds (docs/testing.md,
// "Tested against a real API server"). AGENTPLAT_CLUSTER_VERSIONS (comma-separated) overrides
// the list; .ci/run reads OLDEST and NEWEST from this file.
export const OLDEST = '1.34.4';
export const NEWEST = '1.37.2';
export const VERSIONS: string[] = (process.env.AGENTPLAT_CLUSTER_VERSIONS ?? `${OLDEST},${NEWEST}`)
  .split(',')
  .map((v) => v.trim())
  .filter(Boolean);

/** The version the prune round trip runs on (test/cluster/prune.test.ts): the newest of VERSIONS. */
export const PRUNE_VERSION: string = [...VERSIONS].sort((a, b) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return (x![i] ?? 0) - (y![i] ?? 0);
  return 0;
}).at(-1)!;

/** The helm the differential `--set` test runs (test/cluster/set-differential.test.ts), built by build-helm.sh. */
export const HELM_VERSION = '4.3.1';
