// The plain `chartCrdDocs` and `mcpopCrdDocs` members (src/precomputed.ts): built from the model
// on first use. The build writes what these return to dist/generated/ for the built members.

import type { RenderedDoc, K8sObject } from '../model/objects.ts';
import { buildCrd } from './generate.ts';
import { MCPSERVER_KIND } from './mcpop.ts';
import { GROUP, KINDS, VERSION } from './model.ts';

let chart: RenderedDoc[] | undefined;
let mcpop: RenderedDoc[] | undefined;

export function plainChartCrdDocs(): RenderedDoc[] {
  chart ??= KINDS.map((k) => ({ source: `agentplat/crds/${k.plural}.${GROUP}.yaml`, object: buildCrd({ ...k, group: GROUP, version: VERSION }) as K8sObject }));
  return chart;
}

export function plainMcpopCrdDocs(): RenderedDoc[] {
  mcpop ??= [{ source: `agentplat/charts/mcpop/crds/${MCPSERVER_KIND.plural}.${GROUP}.yaml`, object: buildCrd({ ...MCPSERVER_KIND, group: GROUP }) as K8sObject }];
  return mcpop;
}
