// Schema validators per CRD kind and version, and the JSON schemas they check: the `crdValidator`
// and `crdSchemas` members of the precomputed seam (src/precomputed.ts). The plain members compile
// with ajv on first use (./validation-plain.ts); the built ones load ajv standalone code the build
// generated from the same schemas and options, only for the kinds present in the input.

import type { ValidateFunction } from 'ajv';
import { precomputed } from '../precomputed.ts';
import type { AjvSchemas } from './validation-model.ts';

export type { AjvSchemas } from './validation-model.ts';

declare module '../precomputed.ts' {
  interface Precomputed {
    /** The validator of a served kind and version (the caller has checked that it is served). */
    crdValidator(kind: string, version: string): ValidateFunction;
    /** The JSON schemas behind crdValidator(kind, version); read only to explain errors. */
    crdSchemas(kind: string, version: string): AjvSchemas;
  }
}

export function crdValidator(kind: string, version: string): ValidateFunction {
  return precomputed('crdValidator')(kind, version);
}

export function crdSchemas(kind: string, version: string): AjvSchemas {
  return precomputed('crdSchemas')(kind, version);
}
