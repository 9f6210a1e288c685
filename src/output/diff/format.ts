// How `agentplat diff` prints a comparison: a unified diff of each object's YAML for people, one
// JSON document (version 1) for machines. Both print the changes as diff/shown.ts shows them
// (masked, in the order diff/objects.ts sorts them), so the same inputs always print the same bytes.
import type { ChalkInstance } from 'chalk';
import { PLAIN } from '../../plain-style.ts';
import type { Change } from '../../migrate/changes.ts';
import { hunks } from '../../diff/lines.ts';
import { displayId, type Comparison, type FieldChange, type Status } from '../../diff/objects.ts';
import { summarize, type ShownChange, type SideInfo, type Summary } from '../../diff/shown.ts';
import { jsonText } from '../../values/big-integers.ts';

/** Field paths listed in a changed object's header before `and N more`. */
const LISTED_FIELDS = 6;

const VERB: Record<Status, string> = { added: 'added', removed: 'removed', changed: 'changed' };

/** The unified diff: per object a header line, then its hunks (the whole object when added or removed). */
export function formatText(shown: readonly ShownChange[], chalk: ChalkInstance, opts: { brief?: boolean; context?: number; verbs?: Record<Status, string> } = {}): string {
  const out: string[] = [];
  const verbs = opts.verbs ?? VERB;
  for (const s of shown) {
    const c = s.change;
    let header = `${verbs[c.status]} ${displayId(c)}`;
    if (c.status === 'changed') {
      const paths = s.fields.map((f) => f.path || '(the whole object)');
      header += `: ${paths.slice(0, LISTED_FIELDS).join(', ')}${paths.length > LISTED_FIELDS ? `, and ${paths.length - LISTED_FIELDS} more` : ''}`;
    }
    out.push(chalk.bold(header));
    if (opts.brief) continue;
    const context = c.status === 'changed' ? (opts.context ?? 3) : Number.MAX_SAFE_INTEGER;
    for (const h of hunks(s.lines, context)) {
      out.push(chalk.cyan(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`));
      for (const l of h.lines) out.push(l.op === '-' ? chalk.red(`-${l.text}`) : l.op === '+' ? chalk.green(`+${l.text}`) : ` ${l.text}`);
    }
    out.push('');
  }
  return out.length === 0 ? '' : `${out.join('\n')}${opts.brief ? '\n' : ''}`;
}

/** `2 added, 1 removed, 3 changed, 40 unchanged`, or that both sides hold the same objects. */
export function summaryLine(s: Summary): string {
  if (s.added + s.removed + s.changed === 0) return `no differences: ${s.unchanged} object${s.unchanged === 1 ? '' : 's'} on each side, all the same`;
  return `${s.added} added, ${s.removed} removed, ${s.changed} changed, ${s.unchanged} unchanged`;
}

export interface JsonDiff {
  version: 1;
  tool: { name: 'agentplat'; version: string };
  from: SideInfo;
  to: SideInfo;
  /** What migrating the old side's values to the new revision changed (a revision diff only). */
  migration?: (Change & { file: string })[];
  equal: boolean;
  summary: Summary;
  objects: JsonObject[];
  /**
   * Two values sets of one revision: the keys at which their values differ that change nothing
   * rendered (all of them when the sides render alike; else each that, put back alone to the old
   * side's value, leaves the new side's render as it is). Absent when there is none.
   */
  valuesWithoutEffect?: string[];
}

export interface JsonObject {
  status: Status;
  group: string;
  kind: string;
  namespace: string;
  name: string;
  /** Where each side's object came from: the render's source path or the manifest file. */
  oldSource?: string;
  newSource?: string;
  /** changed: the fields that differ. */
  changes?: FieldChange[];
  /** changed: the unified diff of the two YAML texts (no colour). */
  diff?: string;
  /** added: the new object; removed: the old one (secrets masked). */
  object?: unknown;
}

export function formatJson(shown: readonly ShownChange[], comparison: Comparison, head: Pick<JsonDiff, 'tool' | 'from' | 'to' | 'migration' | 'valuesWithoutEffect'>): string {
  const summary = summarize(comparison);
  const { valuesWithoutEffect, ...rest } = head;
  const doc: JsonDiff = { version: 1, ...rest, equal: comparison.changes.length === 0, summary, objects: jsonObjects(shown), ...(valuesWithoutEffect ? { valuesWithoutEffect } : {}) };
  return `${jsonText(doc, 2)}\n`;
}

/** The objects of the JSON output: each as `objects[]` of `diff -o json` describes it. */
export function jsonObjects(shown: readonly ShownChange[]): JsonObject[] {
  return shown.map((s): JsonObject => {
    const c = s.change;
    return {
      status: c.status,
      group: c.group,
      kind: c.kind,
      namespace: c.namespace,
      name: c.name,
      ...(c.old ? { oldSource: c.old.source } : {}),
      ...(c.new ? { newSource: c.new.source } : {}),
      ...(c.status === 'changed' ? { changes: s.fields, diff: stripHeader(formatText([s], PLAIN)) } : { object: c.status === 'added' ? s.new : s.old }),
    };
  });
}

/** The hunks of one object's text diff, without the header line that names it. */
function stripHeader(text: string): string {
  return text.slice(text.indexOf('\n') + 1).replace(/\n+$/, '\n');
}

