// The ajv configuration of the CRD schemas: the build generates validate's standalone validators
// with it (scripts/gen-crd-validators.mjs), and a test that compiles a schema itself uses the same.

import type { Ajv } from 'ajv';
import { _ } from 'ajv';
import { CRD_FORMAT_CHECKS } from './formats.ts';

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
export const CRD_FORMATS = Object.keys(CRD_FORMAT_CHECKS);

export function prepareCrdAjv<T extends Ajv>(ajv: T): T {
  // Standalone code reaches the format functions through this module (the build bundles it).
  ajv.opts.code.formats ??= _`require("./src/kube-check/formats.ts").CRD_FORMAT_CHECKS`;
  for (const [name, check] of Object.entries(CRD_FORMAT_CHECKS)) ajv.addFormat(name, check);
  return ajv;
}
