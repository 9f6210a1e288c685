// PLACEHOLDER (lead is writing it): the values linter — schema, unknown keys, cross-field rules.
import type { Problem } from './problem.ts';
import type { Revision } from '../spec/revisions.ts';
import type { ValuesSource } from '../values/source.ts';
import type { LayeredValues } from '../values/merge.ts';

export interface LintRequest {
  revision: Revision;
  /** User layers in order (-f files, then the --set family); the revision defaults go below them. */
  layers: readonly ValuesSource[];
  kubeVersion?: string;
}

export interface LintResult {
  /** Sorted problems. */
  problems: Problem[];
  /** Defaults + user layers, merged. */
  layered: LayeredValues;
}

export function lintValues(_req: LintRequest): LintResult {
  throw new Error('lintValues is not implemented yet');
}
