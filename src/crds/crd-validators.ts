// Schema validators per CRD kind and version, and the JSON schemas they check: ajv standalone code
// the build generated from the CRD model's schemas with the options of ../kube-check/crd-ajv.ts
// (scripts/gen-crd-validators.mjs), loaded only for the groups of kinds present in the input.

import type { ValidateFunction } from 'ajv';
import { readGenerated, requireGenerated } from '../package-root.ts';
import type { AjvSchemas } from './validation-model.ts';

export type { AjvSchemas } from './validation-model.ts';

/** crd-validators-index.json: for each `Kind/version`, its group and the name of its validator in that group's script. */
type ValidatorIndex = Record<string, [group: string, name: string]>;

/** crd-schemas-<group>.json: the root schema of each kind in the group, and the core definitions they share. */
interface SchemaGroup {
  roots: Record<string, AjvSchemas['root']>;
  defs: AjvSchemas['defs'];
}

let index: ValidatorIndex | undefined;
const schemaGroups = new Map<string, SchemaGroup>();

function where(kind: string, version: string): [group: string, name: string] {
  const hit = (index ??= JSON.parse(readGenerated('crd-validators-index.json')) as ValidatorIndex)[`${kind}/${version}`];
  if (!hit) throw new Error(`${kind} does not serve ${version}`);
  return hit;
}

/** The validator of a served kind and version (the caller has checked that it is served). */
export function crdValidator(kind: string, version: string): ValidateFunction {
  const [group, name] = where(kind, version);
  return (requireGenerated(`crd-validators-${group}.cjs`) as Record<string, ValidateFunction>)[name]!;
}

/** The JSON schemas behind crdValidator(kind, version); read only to explain errors. */
export function crdSchemas(kind: string, version: string): AjvSchemas {
  const [group] = where(kind, version);
  let s = schemaGroups.get(group);
  if (!s) {
    s = JSON.parse(readGenerated(`crd-schemas-${group}.json`)) as SchemaGroup;
    schemaGroups.set(group, s);
  }
  return { root: s.roots[`${kind}/${version}`]!, defs: s.defs };
}
