// PodDisruptionBudgets of the controller and the UI (identical shape).
//   bad:  controller.pdb: {enabled: true, minAvailable: 1, maxUnavailable: 1}
//   good: controller.pdb: {enabled: true, maxUnavailable: 1}

import type { ValuesRule } from './types.ts';
import { at, optBool, optNum, optStr } from '../../model/values-access.ts';
import { thresholdSet } from '../../model/derive.ts';
import { KUBE_FEATURES, kubeServes } from '../../chart/kube-features.ts';

const COMPONENTS = ['controller', 'ui'] as const;


/** A threshold as the disruption controller reads it: a count, or a percentage of `replicas` rounded up. */
function scaled(threshold: unknown, replicas: number): number | undefined {
  if (typeof threshold === 'number' && Number.isInteger(threshold)) return threshold;
  const m = typeof threshold === 'string' ? /^(\d+)%$/.exec(threshold) : null;
  return m ? Math.ceil((Number(m[1]) * replicas) / 100) : undefined;
}

/**
 * Whether a budget leaves no voluntary eviction possible with every pod healthy: minAvailable
 * keeps all `replicas` up, or maxUnavailable lets none go. With no replicas there is nothing to
 * evict, so nothing is blocked.
 */
export function evictionBlock(replicas: number, min: unknown, max: unknown): { by: 'minAvailable' | 'maxUnavailable'; healthy: number } | undefined {
  if (!(replicas > 0)) return undefined;
  if (min !== undefined) {
    const healthy = scaled(min, replicas);
    return healthy !== undefined && healthy >= replicas ? { by: 'minAvailable', healthy } : undefined;
  }
  if (max !== undefined) {
    const down = scaled(max, replicas);
    return down !== undefined && down <= 0 ? { by: 'maxUnavailable', healthy: replicas } : undefined;
  }
  return undefined;
}

export const pdbRules: ValuesRule = {
  ids: [
    { id: 'values/pdb-thresholds-exclusive', description: 'pdb.minAvailable and pdb.maxUnavailable are mutually exclusive.' },
    { id: 'values/pdb-threshold-missing', description: 'An enabled pdb needs minAvailable or maxUnavailable.' },
    { id: 'values/pdb-blocks-eviction', description: 'A budget that lets no pod go down (minAvailable at or above the replica count, or maxUnavailable 0) blocks every voluntary eviction (node drains hang).' },
    { id: 'values/pdb-eviction-policy-kube-version', description: 'pdb.unhealthyPodEvictionPolicy needs Kubernetes 1.27 or newer.' },
  ],
  check(ctx) {
    for (const c of COMPONENTS) {
      if (optBool(ctx.values, `${c}.pdb.enabled`) !== true) continue;
      const min = at(ctx.values, `${c}.pdb.minAvailable`);
      const max = at(ctx.values, `${c}.pdb.maxUnavailable`);
      if (thresholdSet(min) && thresholdSet(max)) {
        ctx.report({
          rule: 'values/pdb-thresholds-exclusive',
          severity: 'error',
          path: ctx.userSet(`${c}.pdb.minAvailable`) ? `${c}.pdb.minAvailable` : `${c}.pdb.maxUnavailable`,
          message: `\`${c}.pdb.minAvailable\` and \`${c}.pdb.maxUnavailable\` are mutually exclusive, and both are set`,
          hint: `set \`${c}.pdb.maxUnavailable: null\` to use minAvailable (maxUnavailable defaults to 1)`,
        });
      } else if (!thresholdSet(min) && !thresholdSet(max)) {
        ctx.report({
          rule: 'values/pdb-threshold-missing',
          severity: 'error',
          path: `${c}.pdb`,
          message: `\`${c}.pdb\` is enabled but neither minAvailable nor maxUnavailable is set`,
          hint: `set \`${c}.pdb.maxUnavailable: 1\``,
        });
      }
      const replicas = optNum(ctx.values, `${c}.replicas`) ?? 1;
      const blocked = thresholdSet(min) && thresholdSet(max) ? undefined : evictionBlock(replicas, thresholdSet(min) ? min : undefined, thresholdSet(max) ? max : undefined);
      if (blocked) {
        const pods = `${replicas} replica${replicas === 1 ? '' : 's'}`;
        ctx.report(
          blocked.by === 'minAvailable'
            ? {
                rule: 'values/pdb-blocks-eviction',
                severity: 'warning',
                path: `${c}.pdb.minAvailable`,
                message: `\`${c}.pdb.minAvailable\` ${JSON.stringify(min)} with ${pods} keeps ${blocked.healthy} pod${blocked.healthy === 1 ? '' : 's'} up, so it blocks every voluntary eviction: node drains will hang`,
                hint: typeof min === 'number' ? `raise \`${c}.replicas\` to ${min + 1}, or use \`maxUnavailable: 1\` instead` : `lower the percentage, or use \`maxUnavailable: 1\` instead (a percentage of minAvailable is rounded up)`,
              }
            : {
                rule: 'values/pdb-blocks-eviction',
                severity: 'warning',
                path: `${c}.pdb.maxUnavailable`,
                message: `\`${c}.pdb.maxUnavailable\` ${JSON.stringify(max)} with ${pods} lets no pod go down, so it blocks every voluntary eviction: node drains will hang`,
                hint: `set \`${c}.pdb.maxUnavailable: 1\``,
              },
        );
      }
      const policy = optStr(ctx.values, `${c}.pdb.unhealthyPodEvictionPolicy`);
      if (policy && !kubeServes(ctx.kubeVersion, 'pdbUnhealthyPodEvictionPolicy')) {
        ctx.report({
          rule: 'values/pdb-eviction-policy-kube-version',
          severity: 'error',
          path: `${c}.pdb.unhealthyPodEvictionPolicy`,
          message: `\`${c}.pdb.unhealthyPodEvictionPolicy\` needs Kubernetes ${KUBE_FEATURES.pdbUnhealthyPodEvictionPolicy.since} or newer; the target is ${ctx.kubeVersion}`,
          hint: 'remove it (an empty value keeps the platform default), or target a newer cluster with --kube-version',
        });
      }
    }
  },
};
