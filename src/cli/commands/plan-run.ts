// The work of `agentplat plan`, loaded only when that command runs: diff's two sides (diff-run.ts,
// compareSides), judged by the plan modules of src/diff/.
import type { App } from '../app.ts';
import { chalkFor, writeReport } from '../io.ts';
import { lintSettings } from '../lint-settings.ts';
import { eitherSpelling, outputFormat, PLAN_FORMATS, revisionOption } from '../options.ts';
import { packageVersion } from '../package-version.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../../problems/errors.ts';
import { buildPlan, migrationStep } from '../../diff/plan.ts';
import { formatPlanJson, formatPlanText, planProblems, planSummaryLine, PLAN_RULES } from '../../diff/plan-format.ts';
import { compareSides, hasNewSideLayers, type SidesFlags } from './diff-run.ts';

export interface PlanFlags extends SidesFlags {
  revision?: string;
  from?: string;
  to?: string;
  /** diff's spellings of --from and --to. */
  fromRevision?: string;
  toRevision?: string;
  output: string;
  format?: string;
  rule: string[];
}

const FORMS_HINT = 'plan an upgrade (--from A --to B -f values.yaml) or a values change (-r B -f old.yaml --to-values new.yaml)';

export async function runPlan(flags: PlanFlags, app: App): Promise<void> {
  const settings = lintSettings(app.io.cwd, { revision: flags.revision, rule: flags.rule });
  if (flags.format !== undefined && flags.output !== 'text' && flags.format !== flags.output) {
    throw new UsageError(`--format ${flags.format} and --output ${flags.output} ask for two formats`, 'give one of them');
  }
  const output = outputFormat(flags.format ?? flags.output, PLAN_FORMATS);
  const fromFlag = eitherSpelling('revisions', [flags.from, '--from'], [flags.fromRevision, '--from-revision']);
  const toFlag = eitherSpelling('revisions', [flags.to, '--to'], [flags.toRevision, '--to-revision']);
  const from = fromFlag.value !== undefined ? revisionOption(fromFlag.value, fromFlag.flag) : settings.revision;
  const to = toFlag.value !== undefined ? revisionOption(toFlag.value, toFlag.flag) : settings.revision;
  if (!hasNewSideLayers(flags) && from === to) throw new UsageError('nothing to plan: both sides would be the same render', FORMS_HINT);
  const sides = await compareSides(flags, { from, to, revisionFlags: [fromFlag.flag, toFlag.flag], settings }, app);
  // Values that do not render: the plan could not be made (the problems are on stderr).
  if (!sides) {
    app.exitCode = EXIT_USAGE;
    return;
  }
  const migration = (sides.migration ?? []).map((m, i) => migrationStep(m, sides.migrationAt?.[i]));
  const plan = buildPlan(sides.comparison, sides.shown, sides.before.objects, sides.after.objects, migration);
  const head = { from: sides.before.info, to: sides.after.info, ...(sides.migration ? { migrated: { from, to } } : {}) };
  let report: string;
  if (output === 'json') report = formatPlanJson(plan, { ...head, tool: { name: 'agentplat', version: packageVersion() } });
  else if (output === 'sarif') {
    const { formatProblems } = await import('../../lint/formatters/index.ts');
    // The new side's last values file (the one that wins), else the old side's: where the change is made.
    const anchor = [...flags.values, ...flags.toValues].filter((f) => f !== '-' && !/^https?:\/\//i.test(f)).at(-1);
    report = formatProblems(planProblems(plan, anchor), { format: 'sarif', command: 'plan', revision: to, toolVersion: packageVersion(), rules: PLAN_RULES, inputs: [] });
  } else report = formatPlanText(plan, head, await chalkFor(app.io, 'stdout'));
  // Made whole before anything is written: a plan that cannot be written gets no summary.
  writeReport(app.io, { report, ...(output !== 'json' ? { after: `${planSummaryLine(plan)}\n` } : {}) });
  app.exitCode = plan.summary.attention ? EXIT_PROBLEMS : EXIT_OK;
}
