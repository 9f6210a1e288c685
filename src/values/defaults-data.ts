// The plain data of each revision's defaults and where each key is written: the `defaultsData`
// and `defaultsPositions` members of the precomputed seam (src/precomputed.ts). The plain members
// parse values/*.yaml (./defaults-data-plain.ts) and leave positions to be found when a finding
// points into the defaults; the built ones read JSON the build wrote, positions included.

import { precomputed } from '../precomputed.ts';
import type { Revision } from '../spec/revisions.ts';

/** Line, column and source line of each key of the defaults, by joined path. */
export type DefaultsPositions = Record<string, [number, number, string]>;

declare module '../precomputed.ts' {
  interface Precomputed {
    /** A fresh copy of the defaults of a revision (callers may change it). */
    defaultsData(revision: Revision): Record<string, unknown>;
    /** Where each key of the defaults is written, when known ahead of time. */
    defaultsPositions(revision: Revision): DefaultsPositions | undefined;
  }
}

export function defaultsData(revision: Revision): Record<string, unknown> {
  return precomputed('defaultsData')(revision);
}

export function defaultsPositions(revision: Revision): DefaultsPositions | undefined {
  return precomputed('defaultsPositions')(revision);
}
