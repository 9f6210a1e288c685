// The one table --kube-version gates on: the first minor version whose API server takes each field
// by default (sources in docs/decisions.md), and how a cluster's reported version compares to it.
import { describe, expect, it } from 'vitest';
import { KUBE_FEATURES, kubeServes } from '../src/spec/kube-features.ts';

describe('kube-features: the version each gated field is served from by default', () => {
  it('PodDisruptionBudget unhealthyPodEvictionPolicy from 1.27; clusterTrustBundle and podCertificate projections from 1.37', () => {
    expect(Object.fromEntries(Object.entries(KUBE_FEATURES).map(([k, f]) => [k, f.since]))).toEqual({
      pdbUnhealthyPodEvictionPolicy: '1.27',
      clusterTrustBundleProjection: '1.37',
      podCertificateProjection: '1.37',
    });
  });

  it.each([
    ['1.36.9', false],
    ['v1.36.3+k3s1', false],
    ['1.37.0', true],
    ['1.37', true],
    ['1.37.2-eks-4f4795d', true],
    ['2.0', true],
  ])('a %s API server serves the podCertificate projection: %s (patch and build parts do not count)', (version, served) => {
    expect(kubeServes(version, 'podCertificateProjection')).toBe(served);
  });

  it('with no --kube-version every field counts as served (there is no target to check)', () => {
    for (const id of Object.keys(KUBE_FEATURES) as (keyof typeof KUBE_FEATURES)[]) expect(kubeServes(undefined, id)).toBe(true);
  });
});
