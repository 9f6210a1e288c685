// What validate reads about each kind (served versions, and the defaults and CEL rules with their
// paths, messages and fieldPaths as a small schema): the `crdValidationData` member of the
// precomputed seam (src/precomputed.ts). The plain member computes it from the model
// (./validation-plain.ts); the built one reads the same data as JSON, so the bundled validator
// never builds the CRD model objects.

import { precomputed } from '../precomputed.ts';
import type { CrdValidationData } from './validation-model.ts';

export type { CrdValidationData, KindValidationData } from './validation-model.ts';

declare module '../precomputed.ts' {
  interface Precomputed {
    crdValidationData(): CrdValidationData;
  }
}

export function crdValidationData(): CrdValidationData {
  return precomputed('crdValidationData')();
}
