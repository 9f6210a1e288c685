// How a cluster's reported version compares to the table --kube-version gates on
// (src/chart/kube-features.ts, sources in docs/decisions.md). The version each field is gated at is
// pinned by what lint and render do on either side of it (test/render/behaviour.test.ts for the
// PodDisruptionBudget at 1.26/1.27, test/cli/kube-version-gates.test.ts for the projections at
// 1.36/1.37), not by restating the table.
import { describe, expect, it } from 'vitest';
import { KUBE_FEATURES, kubeServes } from '../src/chart/kube-features.ts';

describe('kube-features: whether a reported version serves a gated field', () => {
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
