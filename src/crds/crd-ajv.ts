// One ajv configuration for the CRD schemas, shared by the development path (crd-validators.ts
// compiles at run time) and the build's standalone code generation
// (scripts/gen-crd-validators.mjs), so both validate and report identically.

import type { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

export const CRD_AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  // Not verbose: validate.ts looks up the few fields it reads (the parent schema of an unknown
  // field, the offending value) from the schema and the data, and the generated code is ~20%
  // smaller without a schema reference in every error.
  verbose: false,
  validateFormats: true,
  // Core types (Container, Volume, …) stay functions of their own instead of being inlined at
  // every use: ~15% less generated code, and a core type is compiled by V8 only when used.
  inlineRefs: false,
} as const;

/** The formats the CRD schemas use. */
export const CRD_FORMATS = ['uri', 'date-time', 'int32'];

export function prepareCrdAjv<T extends Ajv>(ajv: T): T {
  const addFormats = addFormatsModule as unknown as (a: Ajv, formats: string[]) => void;
  addFormats(ajv, CRD_FORMATS);
  return ajv;
}
