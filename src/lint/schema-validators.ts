// The values-schema checks of each revision, both built from the JSON schema without its texts
// (scripts/gen-validators.mjs): a walk of the schema as data (dist/generated/values-schema-<rev>.json,
// chart/schema-accepts.ts) that says "valid" for the usual values, and ajv standalone code
// (values-validator-<rev>.cjs), whose verdict and errors stand, loaded only when the walk is not
// sure. A render or lint of the defaults reads neither.

import type { ValidateFunction } from 'ajv';
import { schemaAccepts, type Schema, type Touched } from '../chart/schema-accepts.ts';
import { readGenerated, requireGenerated } from '../package-root.ts';
import type { Revision } from '../chart/revisions.ts';
import { ANNOTATION_KEYWORDS } from './ajv-setup.ts';

const schemas = new Map<Revision, Schema>();
const NO_OPS: ReadonlySet<string> = new Set(ANNOTATION_KEYWORDS);

/**
 * True when `values` (BigInts as numbers) are valid for the revision's schema; false: ask
 * `valuesValidator`. With `touched` (the paths the user's layers write, see touchedBy), only those
 * are walked: the rest of `values` is the chart's defaults, which are valid.
 */
export function valuesSchemaAccepts(revision: Revision, values: unknown, touched?: Touched): boolean {
  let schema = schemas.get(revision);
  if (!schema) {
    schema = JSON.parse(readGenerated(`values-schema-${revision.toLowerCase()}.json`)) as Schema;
    schemas.set(revision, schema);
  }
  return schemaAccepts(schema, { defs: (schema.definitions ?? {}) as Record<string, Schema>, noOps: NO_OPS }, values, touched);
}

/** The paths the data of `layers` write: the keys of their maps, and whole values below a key that holds anything else (a list replaces the default's). */
export function touchedBy(layers: readonly { data: unknown }[]): Touched {
  const add = (into: Map<string, Touched | 'all'>, data: Record<string, unknown>): void => {
    for (const [k, v] of Object.entries(data)) {
      const have = into.get(k);
      if (have === 'all') continue;
      if (v === null || typeof v !== 'object' || Array.isArray(v)) into.set(k, 'all');
      else {
        const below = (have ?? new Map()) as Map<string, Touched | 'all'>;
        into.set(k, below);
        add(below, v as Record<string, unknown>);
      }
    }
  };
  const root = new Map<string, Touched | 'all'>();
  for (const l of layers) if (l.data !== null && typeof l.data === 'object' && !Array.isArray(l.data)) add(root, l.data as Record<string, unknown>);
  return root;
}

const validators = new Map<Revision, ValidateFunction>();

export function valuesValidator(revision: Revision): ValidateFunction {
  let v = validators.get(revision);
  if (!v) {
    v = requireGenerated(`values-validator-${revision.toLowerCase()}.cjs`) as ValidateFunction;
    validators.set(revision, v);
  }
  return v;
}

