// A comparison as diff and plan show it: each change with its objects masked (./mask.ts), its
// field changes and the line diff of its YAML texts, and the counts of a comparison. What prints
// them is output/diff/.
import { objectYaml } from '../render/manifests.ts';
import { diffLines, type DiffLine } from './lines.ts';
import type { Masker } from './mask.ts';
import { fieldChanges, type Comparison, type FieldChange, type ObjectChange, type Status } from './objects.ts';

/** One side as the JSON output describes it. */
export type SideInfo = { kind: 'render'; revision: string; values: string[] } | { kind: 'manifest'; path: string };

export interface ShownChange {
  change: ObjectChange;
  /** The masked objects: the old one (removed, changed) and the new one (added, changed). */
  old?: unknown;
  new?: unknown;
  /** Field by field, on the masked objects (changed only). */
  fields: FieldChange[];
  /** Every line of both YAML texts, marked. */
  lines: DiffLine[];
}

/** The changes of a comparison, masked, each with its field changes and line diff. */
export function showChanges(comparison: Comparison, mask: Masker): ShownChange[] {
  return comparison.changes.map((change) => {
    const [a, b] = mask.pair(change, change.old?.object, change.new?.object);
    const yamlLines = (o: unknown): string[] => (o === undefined ? [] : objectYaml(o).replace(/\n$/, '').split('\n'));
    return {
      change,
      ...(a !== undefined ? { old: a } : {}),
      ...(b !== undefined ? { new: b } : {}),
      fields: change.status === 'changed' ? fieldChanges(a, b) : [],
      lines: diffLines(yamlLines(a), yamlLines(b)),
    };
  });
}

export interface Summary {
  added: number;
  removed: number;
  changed: number;
  unchanged: number;
}

export function summarize(comparison: Comparison): Summary {
  const count = (s: Status) => comparison.changes.filter((c) => c.status === s).length;
  return { added: count('added'), removed: count('removed'), changed: count('changed'), unchanged: comparison.unchanged };
}
