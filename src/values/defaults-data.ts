// The plain data of each revision's defaults and where each key is written: the build parses
// values/revision-*.yaml and writes both to dist/generated/defaults.json (scripts/build.mjs), so a
// run never parses the commented YAML; the file is read on first use.

import { readGenerated } from '../package-root.ts';
import type { Revision } from '../spec/revisions.ts';

/** Line, column and source line of each key of the defaults, by joined path. */
export type DefaultsPositions = Record<string, [number, number, string]>;

/** dist/generated/defaults.json: each revision's defaults and where each key is written. */
export interface GeneratedDefaults {
  data: Record<string, Record<string, unknown>>;
  positions: Record<string, DefaultsPositions>;
}

let defaults: GeneratedDefaults | undefined;
const generated = () => (defaults ??= JSON.parse(readGenerated('defaults.json')) as GeneratedDefaults);

/** A fresh copy of the defaults of a revision (callers may change it). */
export function defaultsData(revision: Revision): Record<string, unknown> {
  return structuredClone(generated().data[revision]!);
}

/** Where each key of the defaults is written. */
export function defaultsPositions(revision: Revision): DefaultsPositions {
  return generated().positions[revision]!;
}
