// Revision B wires the controller to the substrate through two projected volumes whose only
// sources are a clusterTrustBundle (the substrate's CA) and a podCertificate (the controller's
// client certificate). An API server older than KUBE_FEATURES' `since` drops those sources (or
// refuses them, before the gate existed), so the controller would start without either file.
//   bad:  --kube-version 1.34 with controller.substrate.enabled: true (revision B)
//   good: --kube-version 1.37, or controller.substrate.enabled: false

import type { ValuesRule } from './types.ts';
import { bool } from '../../model/values-access.ts';
import { revisionModel } from '../../model/revisions/index.ts';
import { KUBE_FEATURES, kubeOlder, kubeServes, type KubeFeature, type KubeFeatureId } from '../../chart/kube-features.ts';

const RULE = 'values/substrate-projections-kube-version';
const NEEDED: readonly KubeFeatureId[] = ['clusterTrustBundleProjection', 'podCertificateProjection'];

export const substrateProjectionRules: ValuesRule = {
  ids: [
    {
      id: RULE,
      description: `controller.substrate.enabled (revision B) mounts clusterTrustBundle and podCertificate projected volumes, which the API server takes by default from Kubernetes ${KUBE_FEATURES.podCertificateProjection.since}`,
    },
  ],
  check(ctx) {
    // Only the pod-certificate wiring (revision B) mounts the two projections.
    if (!ctx.kubeVersion || bool(ctx.values, 'controller.substrate.enabled') !== true) return;
    if (revisionModel(ctx.revision, ctx.values).substrate.auth.kind !== 'pod-certificate') return;
    const kube = ctx.kubeVersion;
    const missing: KubeFeature[] = NEEDED.filter((f) => !kubeServes(kube, f)).map((f) => KUBE_FEATURES[f]);
    if (missing.length === 0) return;
    const since = missing.map((f) => f.since).sort((a, b) => (kubeOlder(a, b) ? 1 : -1))[0]!;
    const source = (f: KubeFeature) => f.field.slice(f.field.lastIndexOf('.') + 1);
    // Behind a gate that exists at the target version (off by default): dropped without an error,
    // and an operator can turn the gate on. Older than the gate: the field is unknown there.
    const gated = missing.filter((f) => f.gate && !kubeOlder(kube, f.gate.from));
    const unknown = missing.filter((f) => !gated.includes(f));
    const what = [
      ...(gated.length > 0 ? [`drops the ${gated.map(source).join(' and ')} source${gated.length > 1 ? 's' : ''} (feature gate${gated.length > 1 ? 's' : ''} ${gated.map((f) => f.gate!.name).join(' and ')} off by default)`] : []),
      ...(unknown.length > 0 ? [`does not know the ${unknown.map(source).join(' and ')} source${unknown.length > 1 ? 's' : ''}`] : []),
    ];
    ctx.report({
      rule: RULE,
      severity: 'error',
      path: 'controller.substrate.enabled',
      message: `\`controller.substrate.enabled\` mounts the substrate CA and client certificate from clusterTrustBundle and podCertificate projected volumes, which the API server takes by default from Kubernetes ${since}; a ${kube} API server ${what.join(' and ')}, so the controller would start without those files`,
      hint:
        `target Kubernetes ${since} or newer with --kube-version ${since}, or set \`controller.substrate.enabled: false\`` +
        (unknown.length === 0 ? `; on a cluster whose API server and kubelets turn on the ${gated.map((f) => f.gate!.name).join(' and ')} feature gates, turn this rule off with --rule ${RULE}=off` : ''),
    });
  },
};
