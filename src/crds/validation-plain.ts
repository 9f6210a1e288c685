// The plain `crdValidationData`, `crdValidator` and `crdSchemas` members (src/precomputed.ts):
// computed from the CRD model, and ajv compiling each kind's schema on first use.

import { Ajv, type ValidateFunction } from 'ajv';
import { CRD_AJV_OPTIONS, prepareCrdAjv } from './crd-ajv.ts';
import { coreUri } from './ids.ts';
import { ajvSchemasOf, computeValidationData, type AjvSchemas, type CrdValidationData } from './validation-model.ts';

let data: CrdValidationData | undefined;

export function plainCrdValidationData(): CrdValidationData {
  return (data ??= computeValidationData());
}

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();
const added = new Set<string>();

export function plainCrdValidator(kind: string, version: string): ValidateFunction {
  const key = `${kind}/${version}`;
  let v = compiled.get(key);
  if (!v) {
    ajv ??= prepareCrdAjv(new Ajv(CRD_AJV_OPTIONS));
    const { root, defs } = plainCrdSchemas(kind, version);
    // Core types are added once as their own schemas, so every kind shares their compiled code.
    for (const [id, def] of Object.entries(defs)) {
      if (added.has(id)) continue;
      added.add(id);
      ajv.addSchema({ ...def, $id: coreUri(id) });
    }
    v = ajv.compile(root);
    compiled.set(key, v);
  }
  return v;
}

const schemas = new Map<string, AjvSchemas>();

export function plainCrdSchemas(kind: string, version: string): AjvSchemas {
  const key = `${kind}/${version}`;
  let s = schemas.get(key);
  if (!s) {
    s = ajvSchemasOf(kind, version);
    if (!s) throw new Error(`${kind} does not serve ${version}`);
    schemas.set(key, s);
  }
  return s;
}
