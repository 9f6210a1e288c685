// The plain implementation of the precomputed seam (src/precomputed.ts): every member computed
// from the sources (templates/, values/, schemas/ and the CRD model) on first use. The tests run
// on it, and the build runs it to write what the built implementation reads.

import type { Precomputed } from '../precomputed.ts';
import { plainChartCrdDocs, plainMcpopCrdDocs } from '../crds/index-plain.ts';
import { plainCrdSchemas, plainCrdValidationData, plainCrdValidator } from '../crds/validation-plain.ts';
import { plainValuesValidator } from '../lint/schema-validators-plain.ts';
import { plainTemplateSet } from '../render/template-source-plain.ts';
import { plainDefaultsData, plainDefaultsPositions } from '../values/defaults-data-plain.ts';

export const plainPrecomputed: Precomputed = {
  templateSet: plainTemplateSet,
  valuesValidator: plainValuesValidator,
  defaultsData: plainDefaultsData,
  defaultsPositions: plainDefaultsPositions,
  chartCrdDocs: plainChartCrdDocs,
  mcpopCrdDocs: plainMcpopCrdDocs,
  crdValidationData: plainCrdValidationData,
  crdValidator: plainCrdValidator,
  crdSchemas: plainCrdSchemas,
  writtenYaml: () => undefined,
};
