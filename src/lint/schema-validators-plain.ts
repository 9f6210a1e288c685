// The plain `valuesValidator` member (src/precomputed.ts): ajv compiles the JSON schema on first use.

import Ajv, { type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { packageFile } from '../package-root.ts';
import type { Revision } from '../spec/revisions.ts';
import { AJV_OPTIONS, prepareAjv } from './ajv-setup.ts';

const cache = new Map<Revision, ValidateFunction>();

export function plainValuesValidator(revision: Revision): ValidateFunction {
  let v = cache.get(revision);
  if (!v) {
    const schema = JSON.parse(readFileSync(packageFile('schemas', `values-${revision.toLowerCase()}.schema.json`), 'utf8')) as object;
    const ajv = prepareAjv(new Ajv.default(AJV_OPTIONS));
    v = ajv.compile(schema);
    cache.set(revision, v);
  }
  return v;
}
