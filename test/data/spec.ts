// The specification extraction committed under test/data/ (origin in test/data/README.md), parsed
// once for every test that walks it.
import { readFileSync } from 'node:fs';
import type { Revision } from '../../src/chart/revisions.ts';

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');

/** One values key path of values-rows.json. */
export interface ValuesRow {
  path: string;
  section: string;
  revisions: Revision[];
  type: string;
  typeByRevision?: Partial<Record<Revision, string>>;
  default: Partial<Record<Revision, unknown>>;
  defaultKnown: Partial<Record<Revision, boolean>>;
  meaning: string;
  notes: string;
}

/** One rule of values-rules.json. */
export interface ValuesRule {
  id: string;
  section: string;
  revisions: Revision[];
  statement: string;
  keys: string[];
}

/** A field of a type of resource-types.json. */
export interface ResourceField {
  type: string;
  required: boolean;
  default?: unknown;
  defaultAppliedBy?: string;
  enum?: string[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
}

export interface ResourceTypes {
  kinds: Record<string, { spec: string; status: string }>;
  types: Record<string, { fields: Record<string, ResourceField> }>;
  standardTypes: string[];
}

/** One rule of resource-rules.json. */
export interface ResourceRule {
  id: string;
  section: string;
  kind: string;
  at: string;
  statement: string;
  enforcement: string;
}

export const VALUES_ROWS = JSON.parse(read('./spec/values-rows.json')) as ValuesRow[];
export const VALUES_RULES = JSON.parse(read('./spec/values-rules.json')) as ValuesRule[];
export const RESOURCE_TYPES = JSON.parse(read('./spec/resource-types.json')) as ResourceTypes;
export const RESOURCE_RULES = JSON.parse(read('./spec/resource-rules.json')) as ResourceRule[];
/** The text of reference/subcharts-facts.md. */
export const SUBCHARTS_FACTS = read('./reference/subcharts-facts.md');
