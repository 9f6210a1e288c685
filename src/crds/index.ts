// The CRDs of the chart (the six Resource API kinds) and of the mcpop sub-chart, built from the
// model on first use. The validator lives in ./validate.ts (it loads ajv and CEL: import it lazily).
// The bundle replaces this module with one that reads the CRDs written at build time (see
// ./prebuilt.ts); this one is the source of those texts.

import type { RenderedDoc, K8sObject } from '../model/objects.ts';
import { buildCrd } from './generate.ts';
import { MCPSERVER_KIND } from './mcpop.ts';
import { GROUP, KINDS, VERSION } from './model.ts';

export { GROUP, VERSION } from './model.ts';

let chart: RenderedDoc[] | undefined;
let mcpop: RenderedDoc[] | undefined;

/** The six CRDs of the Resource API, one source file each, in a fixed order. */
export function chartCrdDocs(): RenderedDoc[] {
  chart ??= KINDS.map((k) => crdDoc(`agentplat/crds/${k.plural}.${GROUP}.yaml`, () => buildCrd({ ...k, group: GROUP, version: VERSION }) as K8sObject));
  return chart;
}

/** The MCP operator's MCPServer CRD. */
export function mcpopCrdDocs(): RenderedDoc[] {
  mcpop ??= [
    crdDoc(`agentplat/charts/mcpop/crds/${MCPSERVER_KIND.plural}.${GROUP}.yaml`, () => buildCrd({ ...MCPSERVER_KIND, group: GROUP }) as K8sObject),
  ];
  return mcpop;
}

function crdDoc(source: string, build: () => K8sObject): RenderedDoc {
  return { source, object: build() };
}
