// The ajv configuration of the values schemas: the build generates the values validators with it
// (scripts/gen-validators.mjs), and a test that compiles a schema itself uses the same.

import type { default as AjvClass } from 'ajv';

type Ajv = InstanceType<typeof AjvClass.default>;

export const AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  strictTypes: false,
  allowUnionTypes: true,
  verbose: false,
  // Keep the user's data as written: defaults are layered by the values pipeline, not by ajv.
  useDefaults: false,
  code: { source: true, esm: true },
} as const;

/** Annotation keywords the schemas carry for editors and for the linter (no validation effect). */
export const ANNOTATION_KEYWORDS = ['markdownDescription', 'x-agentplat-secret', 'x-agentplat-revision', 'x-agentplat-kind', 'x-kubernetes-int-or-string'];

export function prepareAjv<T extends Ajv>(ajv: T): T {
  for (const k of ANNOTATION_KEYWORDS) if (!ajv.getKeyword(k)) ajv.addKeyword({ keyword: k, schemaType: ['string', 'boolean', 'object', 'array', 'number'] });
  return ajv;
}
