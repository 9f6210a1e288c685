// The CRDs of the chart (the six Resource API kinds) and of the mcpop sub-chart: the
// `chartCrdDocs` and `mcpopCrdDocs` members of the precomputed seam (src/precomputed.ts). The
// plain members build them from the model (./index-plain.ts); the built ones read the texts and
// objects the build wrote (./prebuilt.ts), so neither the CRD model nor its schemas are loaded.
// The validator lives in ./validate.ts (it loads ajv and CEL: import it lazily).

import type { RenderedDoc } from '../model/objects.ts';
import { precomputed } from '../precomputed.ts';

declare module '../precomputed.ts' {
  interface Precomputed {
    /** The six CRDs of the Resource API, one source file each, in a fixed order. */
    chartCrdDocs(): RenderedDoc[];
    /** The MCP operator's MCPServer CRD. */
    mcpopCrdDocs(): RenderedDoc[];
  }
}

export function chartCrdDocs(): RenderedDoc[] {
  return precomputed('chartCrdDocs')();
}

export function mcpopCrdDocs(): RenderedDoc[] {
  return precomputed('mcpopCrdDocs')();
}
