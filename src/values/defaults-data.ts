// The plain data of each revision's defaults and where each key is written: the build parses
// values/revision-*.yaml and writes them to dist/generated/defaults-<rev>.json and
// defaults-positions.json (scripts/build.mjs), so a run never parses the commented YAML. Each file
// is read on first use: the positions only when a problem names a key of the defaults, the keys
// the defaults leave unset (defaults-unset.json) only when a user's null meets one.

import { readGenerated } from '../package-root.ts';
import type { Revision } from '../chart/revisions.ts';
import type { KeyTree } from '../chart/values-nodes.ts';

/** Line, column and source line of each key of the defaults, by joined path. */
export type DefaultsPositions = Record<string, [number, number, string]>;

let positions: Record<string, DefaultsPositions> | undefined;
let unset: Record<string, KeyTree> | undefined;

/** A fresh copy of the defaults of a revision (callers may change it): parsed anew, which is faster than a clone. */
export function defaultsData(revision: Revision): Record<string, unknown> {
  return JSON.parse(readGenerated(`defaults-${revision.toLowerCase()}.json`)) as Record<string, unknown>;
}

/** Where each key of the defaults is written. */
export function defaultsPositions(revision: Revision): DefaultsPositions {
  positions ??= JSON.parse(readGenerated('defaults-positions.json')) as Record<string, DefaultsPositions>;
  return positions[revision]!;
}

/**
 * The keys the values model declares and the defaults leave unset (optional keys), with the groups
 * on the way to them (chart/values-model.ts unsetKeysOf).
 */
export function defaultsUnsetKeys(revision: Revision): KeyTree {
  unset ??= JSON.parse(readGenerated('defaults-unset.json')) as Record<string, KeyTree>;
  return unset[revision]!;
}
