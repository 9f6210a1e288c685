// The adapter of each revision: merged values in, the revision's typed model out.

import type { Revision } from '../../chart/revisions.ts';
import type { Values } from '../../values/merge.ts';
import type { RevisionModel } from '../revision-model.ts';
import { revisionA } from './a.ts';
import { revisionB } from './b.ts';

const ADAPTERS: Record<Revision, (values: Values) => RevisionModel> = { A: revisionA, B: revisionB };
const BUILT: Record<Revision, WeakMap<Values, RevisionModel>> = { A: new WeakMap(), B: new WeakMap() };

/**
 * Who watches the models asked for and built: `explain` (src/explain/rule-reads.ts), which tells
 * what a lint check reads itself from what the model it asks for reads. Unset in every other run.
 */
export interface ModelWatch {
  /** A model of `values` is asked for (built or not). */
  asked(values: Values): void;
  /** The adapter starts building the model of `values`. */
  building(values: Values): void;
  /** The adapter is done: `ok` false when it threw (nothing is kept, the next ask builds again). */
  built(values: Values, ok: boolean): void;
}

let watch: ModelWatch | undefined;

/** Sets (or, with undefined, ends) the watch of revisionModel. */
export function watchModels(w: ModelWatch | undefined): void {
  watch = w;
}

/**
 * The model of merged values, built once per values object: every lint rule and the render
 * context of one run share it. Merged values are never changed after merging.
 */
export function revisionModel(revision: Revision, values: Values): RevisionModel {
  watch?.asked(values);
  let m = BUILT[revision].get(values);
  if (!m) {
    if (!watch) m = ADAPTERS[revision](values);
    else {
      let ok = false;
      watch.building(values);
      try {
        m = ADAPTERS[revision](values);
        ok = true;
      } finally {
        watch.built(values, ok);
      }
    }
    BUILT[revision].set(values, m);
  }
  return m;
}
