// The adapter of each revision: merged values in, the revision's typed model out.

import type { Revision } from '../../spec/revisions.ts';
import type { Values } from '../../values/merge.ts';
import type { RevisionModel } from '../revision-model.ts';
import { revisionA } from './a.ts';
import { revisionB } from './b.ts';

const ADAPTERS: Record<Revision, (values: Values) => RevisionModel> = { A: revisionA, B: revisionB };
const BUILT: Record<Revision, WeakMap<Values, RevisionModel>> = { A: new WeakMap(), B: new WeakMap() };

/**
 * The model of merged values, built once per values object: every lint rule and the render
 * context of one run share it. Merged values are never changed after merging.
 */
export function revisionModel(revision: Revision, values: Values): RevisionModel {
  let m = BUILT[revision].get(values);
  if (!m) {
    m = ADAPTERS[revision](values);
    BUILT[revision].set(values, m);
  }
  return m;
}
