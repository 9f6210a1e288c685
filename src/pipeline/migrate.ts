// `migrate`: rewrites a values file of one revision into the next, keeping the user's comments
// and key order, and reports every change. The result is then linted in the target revision, so
// whatever is still wrong becomes a decision for the user instead of a surprise at install time.

import { isMap, LineCounter, parseDocument } from 'yaml';
import { applyRuleLevels, askedFor, type RuleLevel } from '../lint/config.ts';
import { lintValues } from '../lint/lint.ts';
import type { Problem } from '../problems/problem.ts';
import type { Revision } from '../spec/revisions.ts';
import { parseValuesText } from '../values/source.ts';
import { migrateAToB } from '../migrate/a-to-b.ts';
import { changeLine, type Change } from '../migrate/changes.ts';

export interface MigrateResult {
  /** The migrated file (undefined when the input does not parse: then `problems` are the input's). */
  text?: string;
  changes: Change[];
  /** Problems of the input (it does not parse) or of the output in the target revision. */
  problems: Problem[];
  /** True when a change or a remaining problem needs the user. */
  decisionsLeft: boolean;
}

/** Migration steps by `from→to`; only forward steps exist. */
const STEPS: Record<string, typeof migrateAToB> = { 'A→B': migrateAToB };

export function supportedMigrations(): string[] {
  return Object.keys(STEPS);
}

/** `rules` are the levels of `.agentplat.yaml` and --rule, applied to the lint of the result. */
export function migrateValues(text: string, name: string, from: Revision, to: Revision, rules: Readonly<Record<string, RuleLevel>> = {}): MigrateResult {
  const step = STEPS[`${from}→${to}`];
  if (!step) throw new Error(`no migration from ${from} to ${to}`);
  const input = parseValuesText(text, name);
  if (!input.source) return { changes: [], problems: input.problems, decisionsLeft: true };

  const doc = parseDocument(text, { lineCounter: new LineCounter(), keepSourceTokens: false, version: '1.2', logLevel: 'error' });
  const changes: Change[] = [];
  if (isMap(doc.contents)) step(doc, (c) => changes.push(c));
  // An empty or comments-only file has nothing to migrate: it stays as it is (not `null`).
  const out = doc.contents === null ? text : doc.toString({ lineWidth: 0 });

  const parsed = parseValuesText(out, name);
  const problems = applyRuleLevels(parsed.source ? lintValues({ revision: to, layers: [parsed.source], showDefaultNote: askedFor(rules) }).problems : parsed.problems, rules);
  const decisionsLeft = changes.some((c) => c.kind === 'decide') || problems.some((p) => p.severity === 'error');
  return { text: out, changes, problems, decisionsLeft };
}

/** The stderr report: one line per change, then one per remaining problem, then a summary. */
export function migrationReport(result: MigrateResult, to: Revision): string {
  const lines = result.changes.map(changeLine);
  for (const p of result.problems) {
    const mark = p.severity === 'error' ? 'decide: ' : '';
    lines.push(`${p.path || p.file || '(values)'}: ${mark}${p.message} — revision ${to} lint [${p.rule}]${p.hint ? `; ${p.hint}` : ''}`);
  }
  const decisions = result.changes.filter((c) => c.kind === 'decide').length + result.problems.filter((p) => p.severity === 'error').length;
  lines.push(`${result.changes.length} change${result.changes.length === 1 ? '' : 's'}, ${decisions} decision${decisions === 1 ? '' : 's'} left for you`);
  return `${lines.join('\n')}\n`;
}
