// The adapter of each revision: merged values in, the revision's typed model out.

import type { Revision } from '../../spec/revisions.ts';
import type { Values } from '../../values/merge.ts';
import type { RevisionModel } from '../revision-model.ts';
import { revisionA } from './a.ts';
import { revisionB } from './b.ts';

const ADAPTERS: Record<Revision, (values: Values) => RevisionModel> = { A: revisionA, B: revisionB };

export function revisionModel(revision: Revision, values: Values): RevisionModel {
  return ADAPTERS[revision](values);
}
