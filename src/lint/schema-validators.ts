// The values-schema validator of each revision: ajv standalone code the build generated from the
// JSON schema (scripts/gen-validators.mjs, dist/generated/values-validator-<rev>.cjs), loaded only
// when there are user values to check (a render or lint of the defaults never does).

import type { ValidateFunction } from 'ajv';
import { requireGenerated } from '../package-root.ts';
import type { Revision } from '../spec/revisions.ts';

const validators = new Map<Revision, ValidateFunction>();

export function valuesValidator(revision: Revision): ValidateFunction {
  let v = validators.get(revision);
  if (!v) {
    v = requireGenerated(`values-validator-${revision.toLowerCase()}.cjs`) as ValidateFunction;
    validators.set(revision, v);
  }
  return v;
}

