// The CRD documents built from the model: what the build writes to dist/generated/ for
// ./index.ts (scripts/build.mjs), and what tests compare the generated files with. No run of the
// CLI or the API imports this module.

import type { K8sObject, RenderedDoc } from '../model/objects.ts';
import { buildCrd } from './generate.ts';
import { MCPSERVER_KIND } from './mcpop.ts';
import { GROUP, KINDS, VERSION } from './model.ts';

export function modelChartCrdDocs(): RenderedDoc[] {
  return KINDS.map((k) => ({ source: `agentplat/crds/${k.plural}.${GROUP}.yaml`, object: buildCrd({ ...k, group: GROUP, version: VERSION }) as K8sObject }));
}

export function modelMcpopCrdDocs(): RenderedDoc[] {
  return [{ source: `agentplat/charts/mcpop/crds/${MCPSERVER_KIND.plural}.${GROUP}.yaml`, object: buildCrd({ ...MCPSERVER_KIND, group: GROUP }) as K8sObject }];
}
