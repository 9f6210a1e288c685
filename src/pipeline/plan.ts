// The `plan` operation: the two sides of compareSides, judged as an upgrade (src/diff/plan.ts):
// the updates the API server refuses, CRD changes, what touches data, what a migration did.
// Returns data; the CLI (cli/commands/plan-run.ts) formats it and picks the exit code.
import type { ValuesChangeEffect } from './no-effect.ts';
import { buildPlan, migrationStep, type Plan } from '../diff/plan.ts';
import { compareSides, inertValuesChange, type CompareRequest, type Sides } from './compare.ts';

export interface PlanRequest extends CompareRequest {
  /** The command that renders the old side, for a deleted object's `keep` advice. */
  renderOld: string;
  /** Also find the keys at which two values sets of one revision differ while the renders do not. */
  valuesWithoutEffect?: boolean;
}

export interface PlanOutcome {
  /** The two sides compared; undefined when a side has no objects (see the sides handed to `onSide`): no plan could be made. */
  sides?: Sides;
  plan?: Plan;
  /** With `valuesWithoutEffect`: the keys at which two values sets of one revision differ, and those of them that change nothing rendered. */
  valuesWithoutEffect?: ValuesChangeEffect;
}

export async function planOperation(req: PlanRequest): Promise<PlanOutcome> {
  const sides = await compareSides(req);
  if (!sides) return {};
  const { from, to } = req;
  const migration = (sides.migration ?? []).map((m, i) => migrationStep(m, sides.migrationAt?.[i]));
  const plan = buildPlan(sides.comparison, sides.shown, sides.before.objects, sides.after.objects, migration, { from, to, migrated: sides.migration !== undefined, renderOld: req.renderOld });
  const inert = req.valuesWithoutEffect ? await inertValuesChange(sides, from, to, undefined) : undefined;
  return { sides, plan, ...(inert ? { valuesWithoutEffect: inert } : {}) };
}
