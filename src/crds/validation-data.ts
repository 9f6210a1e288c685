// What validate reads about each kind: served versions, and the defaults and CEL rules (with their
// paths, messages and fieldPaths) as a small schema. This is the development path: computed from
// the model on first use. The build (scripts/gen-crd-validators.mjs) replaces this module with the
// same data as JSON, so the bundled validator never builds the CRD model objects.

import { computeValidationData, type CrdValidationData } from './validation-model.ts';

export type { CrdValidationData, KindValidationData } from './validation-model.ts';

let data: CrdValidationData | undefined;

export function crdValidationData(): CrdValidationData {
  return (data ??= computeValidationData());
}
