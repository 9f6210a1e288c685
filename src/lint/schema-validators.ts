// The values-schema validator of each revision: the `valuesValidator` member of the precomputed
// seam (src/precomputed.ts). The plain member compiles the JSON schema with ajv on first use
// (./schema-validators-plain.ts); the built one loads ajv standalone code the build generated.

import type { ValidateFunction } from 'ajv';
import { precomputed } from '../precomputed.ts';
import type { Revision } from '../spec/revisions.ts';

declare module '../precomputed.ts' {
  interface Precomputed {
    valuesValidator(revision: Revision): ValidateFunction;
  }
}

export function valuesValidator(revision: Revision): ValidateFunction {
  return precomputed('valuesValidator')(revision);
}
