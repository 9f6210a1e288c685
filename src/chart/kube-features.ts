// Kubernetes API fields the chart's output relies on that an API server does not take at every
// version, with the first minor version whose API server takes them with its default settings.
// `--kube-version` gates render and lint on this one table (docs/decisions.md gives the sources).
// Below `since`, the server either does not know the field (strict field validation refuses it)
// or knows it behind a feature gate that is off by default and drops it without an error.

export interface KubeFeature {
  /** The field as a user finds it in the manifest. */
  field: string;
  /** First Kubernetes minor version whose API server takes the field by default, `1.Y`. */
  since: string;
  /** The feature gate that, before `since`, turns the field on, and the first minor it exists in. */
  gate?: { name: string; from: string };
}

export const KUBE_FEATURES = {
  pdbUnhealthyPodEvictionPolicy: { field: 'PodDisruptionBudget spec.unhealthyPodEvictionPolicy', since: '1.27' },
  clusterTrustBundleProjection: { field: 'Pod spec.volumes[].projected.sources[].clusterTrustBundle', since: '1.37', gate: { name: 'ClusterTrustBundleProjection', from: '1.29' } },
  podCertificateProjection: { field: 'Pod spec.volumes[].projected.sources[].podCertificate', since: '1.37', gate: { name: 'PodCertificateRequest', from: '1.34' } },
} as const satisfies Record<string, KubeFeature>;

export type KubeFeatureId = keyof typeof KUBE_FEATURES;

/** [major, minor] of `1.29`, `v1.29.3`, `1.29.3-eks-…`; undefined for anything else. */
function minorOf(version: string): [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** True when `version` is older than `than` (both `X.Y[.Z]`; patch releases do not count). */
export function kubeOlder(version: string, than: string): boolean {
  const a = minorOf(version);
  const b = minorOf(than);
  if (!a || !b) return false;
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/**
 * Whether an API server of `kubeVersion`, with its default settings, takes the feature's field.
 * With no --kube-version there is no target to check against: every feature counts as served.
 */
export function kubeServes(kubeVersion: string | undefined, feature: KubeFeatureId): boolean {
  return kubeVersion === undefined || !kubeOlder(kubeVersion, KUBE_FEATURES[feature].since);
}
