// PodDisruptionBudgets of the controller and the UI (same logic): exclusive thresholds (the
// linter rejects both or neither), an explicit 0 honoured, unhealthyPodEvictionPolicy omitted
// when empty or when --kube-version is older than 1.27 (the field does not exist there).

import type { Component, RenderContext } from '../../model/context.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import { chartLabels, nameOf, selectorLabels, stringMap } from '../chart.ts';
import { thresholdSet } from '../../model/derive.ts';
import { kubeServes } from '../../chart/kube-features.ts';
import { at, bool, map, str } from '../../model/values-access.ts';
import { chartDocs, meta } from './common.ts';

function pdb(ctx: RenderContext, component: 'controller' | 'ui'): RenderedDoc[] {
  const p = `${component}.pdb`;
  if (!bool(ctx.values, `${p}.enabled`)) return [];
  const minAvailable = at(ctx.values, `${p}.minAvailable`);
  const policy = !kubeServes(ctx.capabilities.kubeVersion, 'pdbUnhealthyPodEvictionPolicy') ? '' : str(ctx.values, `${p}.unhealthyPodEvictionPolicy`);
  return chartDocs(`${component}-pdb.yaml`, 'pdb.yaml.hbs', {
    meta: meta(ctx, nameOf(ctx, component), chartLabels(ctx, component, map(ctx.values, `${p}.labels`)), stringMap(map(ctx.values, `${p}.annotations`))),
    minAvailableSet: thresholdSet(minAvailable),
    minAvailable: minAvailable ?? null,
    maxUnavailable: at(ctx.values, `${p}.maxUnavailable`) ?? 1,
    unhealthyPodEvictionPolicy: policy,
    selector: selectorLabels(ctx, component),
  });
}

export const pdbComponent: Component = {
  id: 'pdb',
  render: (ctx) => [...pdb(ctx, 'controller'), ...pdb(ctx, 'ui')],
};
