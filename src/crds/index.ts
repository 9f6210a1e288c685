// The CRDs of the chart (the six Resource API kinds) and of the mcpop sub-chart, built from the
// model on first use. The validator lives in ./validate.ts (it loads ajv and CEL: import it lazily).

import type { RenderedDoc, K8sObject } from '../render/engine.ts';
import { buildCrd } from './generate.ts';
import { MCPServerSpec, MCPServerStatus } from './mcpop.ts';
import { GROUP, KINDS, VERSION } from './model.ts';

export { GROUP, VERSION } from './model.ts';

let chart: RenderedDoc[] | undefined;
let mcpop: RenderedDoc[] | undefined;

/** The six CRDs of the Resource API, one source file each, in a fixed order. */
export function chartCrdDocs(): RenderedDoc[] {
  chart ??= KINDS.map((k) => ({
    source: `agentplat/crds/${k.plural}.${GROUP}.yaml`,
    object: buildCrd({ ...k, group: GROUP, version: VERSION }) as K8sObject,
  }));
  return chart;
}

/** The MCP operator's MCPServer CRD. */
export function mcpopCrdDocs(): RenderedDoc[] {
  mcpop ??= [
    {
      source: `agentplat/charts/mcpop/crds/mcpservers.${GROUP}.yaml`,
      object: buildCrd({
        group: GROUP,
        version: 'v1alpha1',
        kind: 'MCPServer',
        plural: 'mcpservers',
        singular: 'mcpserver',
        shortNames: [],
        description: 'An MCP server run by the MCP operator.',
        spec: MCPServerSpec,
        status: MCPServerStatus,
        columns: [
          { name: 'Ready', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
      }) as K8sObject,
    },
  ];
  return mcpop;
}
