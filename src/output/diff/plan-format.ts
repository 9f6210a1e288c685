// How `agentplat plan` prints a plan: sections of text for people, one JSON document (version 1)
// for machines, and SARIF (the lint formatter's, from one problem per finding) for code scanning.
import type { ChalkInstance } from 'chalk';
import { locatedChangeLine } from '../../migrate/changes.ts';
import type { Problem } from '../../problems/problem.ts';
import { jsonText } from '../../values/big-integers.ts';
import type { SideInfo } from '../../diff/shown.ts';
import { displayId } from '../../diff/objects.ts';
import type { Action, Plan, PlannedObject } from '../../diff/plan.ts';

/** The order the object plan lists actions in: what needs a person first. */
const ACTION_ORDER: readonly Action[] = ['replace', 'delete', 'update', 'create'];

/** Field paths listed after an updated object before `and N more`. */
const LISTED_FIELDS = 6;

function fieldList(o: PlannedObject): string {
  const paths = (o.changes ?? []).map((f) => f.path || '(the whole object)');
  return `${paths.slice(0, LISTED_FIELDS).join(', ')}${paths.length > LISTED_FIELDS ? `, and ${paths.length - LISTED_FIELDS} more` : ''}`;
}

const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;

export interface PlanHead {
  from: SideInfo;
  to: SideInfo;
  /** Set when the new side's values are the old side's, migrated. */
  migrated?: { from: string; to: string };
}

export function formatPlanText(plan: Plan, head: PlanHead, chalk: ChalkInstance): string {
  const out: string[] = [];
  const section = (title: string) => out.push(chalk.bold(title));
  if (head.migrated) {
    section(`Values migration (revision ${head.migrated.from} → ${head.migrated.to}, as agentplat migrate does)`);
    if (plan.migration.length === 0) out.push('  nothing to migrate');
    for (const m of plan.migration) {
      const line = `  ${locatedChangeLine(m, m)}`;
      out.push(m.kind === 'decide' || m.dropped ? chalk.yellow(line) : line);
    }
    out.push('');
  }
  const s = plan.summary;
  section(`Objects: ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.delete} to delete, ${s.unchanged} unchanged`);
  if (plan.objects.length === 0) out.push('  no object changes');
  for (const action of ACTION_ORDER) {
    for (const o of plan.objects.filter((x) => x.action === action)) {
      const id = displayId(o);
      if (action === 'replace') {
        out.push(chalk.red(`  replace ${id}`));
        for (const r of o.replacement!.refused) out.push(`      refused: ${r.field}: ${r.reason}`);
        out.push(`      first:   ${o.replacement!.deleteFirst}, then apply`);
        if (o.replacement!.data) out.push(`      data:    ${o.replacement!.data}`);
        const other = (o.changes ?? []).filter((f) => !o.replacement!.refused.some((r) => f.path === r.field || f.path.startsWith(`${r.field}.`) || f.path.startsWith(`${r.field}[`)));
        if (other.length > 0) out.push(`      also:    ${fieldList({ ...o, changes: other })}`);
      } else if (action === 'delete') {
        out.push(chalk.yellow(`  delete  ${id}`));
        const d = plan.deletions.find((x) => x.group === o.group && x.kind === o.kind && x.namespace === o.namespace && x.name === o.name);
        if (d) out.push(`      why:     ${d.why}`, `      keep:    ${d.keep}`);
      } else if (action === 'update') out.push(`  update  ${id}: ${fieldList(o)}`);
      else out.push(chalk.green(`  create  ${id}`));
    }
  }
  out.push('');
  section('CRD changes');
  if (plan.crds.length === 0) out.push('  none');
  for (const c of plan.crds) {
    const where = [c.crd, c.version, c.path].filter((x) => x !== undefined).join(' ');
    const line = `  ${where}: ${c.change} — ${c.severity === 'break' ? 'breaks ' : ''}${c.breaks}`;
    out.push(c.severity === 'break' ? chalk.yellow(line) : line);
  }
  out.push('');
  section('Changes that touch data');
  if (plan.data.length === 0) out.push('  none');
  for (const d of plan.data) out.push(chalk.yellow(`  ${displayId(d)}: ${d.what} — ${d.why}`));
  out.push('');
  return `${out.join('\n')}\n`;
}

/** `needs attention: 1 replacement, 10 deletions, 2 migration decisions` or that nothing does. */
export function planSummaryLine(plan: Plan): string {
  const s = plan.summary;
  const parts = [
    s.replace > 0 ? plural(s.replace, 'replacement') : '',
    s.delete > 0 ? plural(s.delete, 'deletion') : '',
    s.dataChanges > 0 ? plural(s.dataChanges, 'change that touches data', 'changes that touch data') : '',
    s.crdBreaks > 0 ? plural(s.crdBreaks, 'CRD change that can break resources', 'CRD changes that can break resources') : '',
    s.decisions > 0 ? plural(s.decisions, 'migration decision') : '',
    s.droppedSettings > 0 ? plural(s.droppedSettings, 'value you set that the migration drops', 'values you set that the migration drops') : '',
  ].filter(Boolean);
  const counts = `${s.create} create, ${s.update} update, ${s.replace} replace, ${s.delete} delete, ${s.unchanged} unchanged`;
  return parts.length > 0 ? `needs attention: ${parts.join(', ')} (${counts})` : `nothing needs attention (${counts})`;
}

export interface JsonPlan extends Plan {
  version: 1;
  tool: { name: 'agentplat'; version: string };
  from: SideInfo;
  to: SideInfo;
  attention: boolean;
  /** As in `diff -o json`: the keys of a values change of one revision that change nothing rendered. */
  valuesWithoutEffect?: string[];
}

export function formatPlanJson(plan: Plan, head: PlanHead & { tool: JsonPlan['tool']; valuesWithoutEffect?: string[] }): string {
  const doc = {
    version: 1,
    tool: head.tool,
    from: head.from,
    to: head.to,
    attention: plan.summary.attention,
    summary: plan.summary,
    migration: plan.migration,
    objects: plan.objects,
    crds: plan.crds,
    data: plan.data,
    deletions: plan.deletions,
    ...(head.valuesWithoutEffect ? { valuesWithoutEffect: head.valuesWithoutEffect } : {}),
  };
  return `${jsonText(doc, 2)}\n`;
}

/** The rule ids of plan's findings, with the description SARIF's rule table shows. */
export const PLAN_RULES: ReadonlyMap<string, string> = new Map([
  ['plan/replace', 'The API server refuses to update this object: it must be deleted and created again'],
  ['plan/delete', 'The upgrade deletes this object: something may rely on it'],
  ['plan/data', 'The upgrade touches stored data'],
  ['plan/crd-break', 'A CRD change can break existing custom resources or their clients'],
  ['plan/migration-decision', 'The values migration needs a decision'],
  ['plan/migration', 'The values migration rewrote this key'],
]);

/**
 * The plan's findings as problems (SARIF): one per finding that needs attention, and a note per
 * automatic migration step. A replacement, a deletion, a CRD break or a data change has no
 * values position of its own; `anchor`, the values file that decides the new side, is where they
 * are shown (at its start), since code scanning drops a result without a location.
 */
export function planProblems(plan: Plan, anchor?: string): Problem[] {
  const out: Problem[] = [];
  const at = anchor !== undefined ? { file: anchor } : {};
  for (const m of plan.migration) {
    out.push({
      severity: m.kind === 'decide' || m.dropped ? 'warning' : 'info',
      rule: m.kind === 'decide' ? 'plan/migration-decision' : 'plan/migration',
      path: m.path,
      message: `${m.path}: ${m.what} — ${m.why}`,
      file: m.file,
      ...(m.line !== undefined ? { line: m.line } : {}),
      ...(m.column !== undefined ? { column: m.column } : {}),
    });
  }
  for (const o of plan.objects.filter((x) => x.action === 'replace')) {
    out.push({
      severity: 'warning',
      rule: 'plan/replace',
      path: o.replacement!.refused.map((r) => r.field).join(', '),
      message: `${displayId(o)} must be re-created: ${o.replacement!.refused.map((r) => `${r.field}: ${r.reason}`).join('; ')}`,
      hint: `${o.replacement!.deleteFirst}, then apply${o.replacement!.data ? `; ${o.replacement!.data}` : ''}`,
      ...at,
    });
  }
  for (const d of plan.deletions) {
    out.push({ severity: 'warning', rule: 'plan/delete', path: '', message: `${displayId(d)} is deleted: ${d.why}`, hint: `to keep it, ${d.keep}`, ...at });
  }
  for (const c of plan.crds.filter((x) => x.severity === 'break')) {
    out.push({ severity: 'warning', rule: 'plan/crd-break', path: c.path ?? '', message: `${[c.crd, c.version].filter(Boolean).join(' ')}: ${c.change} — ${c.breaks}`, ...at });
  }
  for (const d of plan.data) out.push({ severity: 'warning', rule: 'plan/data', path: '', message: `${displayId(d)}: ${d.what} — ${d.why}`, ...at });
  return out;
}
