// What validate reads about each kind (served versions, and the defaults and CEL rules with their
// paths, messages and fieldPaths as a small schema): computed from the CRD model by the build
// (computeValidationData in ./validation-model.ts, scripts/gen-crd-validators.mjs) and read here
// as JSON, so the validator never builds the CRD model objects.

import { readGenerated } from '../package-root.ts';
import type { CrdValidationData } from './validation-model.ts';

export type { CrdValidationData, KindValidationData } from './validation-model.ts';

let data: CrdValidationData | undefined;

export function crdValidationData(): CrdValidationData {
  return (data ??= JSON.parse(readGenerated('crd-validation-data.json')) as CrdValidationData);
}
