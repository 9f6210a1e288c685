// The work of `agentplat plan`, loaded only when that command runs: diff's two sides (diff-run.ts,
// compareSides), judged by the plan modules of src/diff/.
import type { App } from '../app.ts';
import { chalkFor, writeReport } from '../io.ts';
import { lintSettings } from '../lint-settings.ts';
import { eitherSpelling, outputFormat, PLAN_FORMATS, revisionOption } from '../options.ts';
import { packageVersion } from '../../package-version.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../../problems/errors.ts';
import { buildPlan, migrationStep } from '../../diff/plan.ts';
import { formatPlanJson, formatPlanText, planProblems, planSummaryLine, PLAN_RULES } from '../../output/diff/plan-format.ts';
import { compareSides, hasNewSideLayers, inertValuesChange, inertValuesLine, type SidesFlags } from '../compare.ts';

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

/** A word as a POSIX shell reads it back: as it is when plain, else in single quotes. */
const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

/**
 * The render of the old side as a command line, for a deleted object's `keep` advice: its revision,
 * values files, release flags and rule levels. --set values are not repeated (they may hold
 * secrets): `--set …` stands for them.
 */
function oldSideCommand(flags: PlanFlags, revision: string): string {
  const words = ['agentplat', 'render', '--revision', revision];
  for (const f of flags.values) words.push('-f', shellWord(f));
  if (flags.namespace !== 'default') words.push('-n', shellWord(flags.namespace));
  if (flags.releaseName !== 'agentplat') words.push('--release-name', shellWord(flags.releaseName));
  if (flags.apiVersions.length > 0) words.push('--api-versions', shellWord(flags.apiVersions.join(',')));
  if (flags.kubeVersion !== undefined) words.push('--kube-version', shellWord(flags.kubeVersion));
  const sets: [string, string[]][] = [['--set', flags.set], ['--set-string', flags.setString], ['--set-json', flags.setJson], ['--set-file', flags.setFile], ['--set-literal', flags.setLiteral]];
  for (const [flag, list] of sets) if (list.length > 0) words.push(flag, '…');
  for (const r of flags.rule) words.push('--rule', shellWord(r));
  return words.join(' ');
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
  const plan = buildPlan(sides.comparison, sides.shown, sides.before.objects, sides.after.objects, migration, { from, to, migrated: sides.migration !== undefined, renderOld: oldSideCommand(flags, from) });
  const head = { from: sides.before.info, to: sides.after.info, ...(sides.migration ? { migrated: { from, to } } : {}) };
  let report: string;
  if (output === 'json') report = formatPlanJson(plan, { ...head, tool: { name: 'agentplat', version: packageVersion() } });
  else if (output === 'sarif') {
    const { formatProblems } = await import('../../output/formatters/index.ts');
    // The new side's last values file (the one that wins), else the old side's: where the change is made.
    const anchor = [...flags.values, ...flags.toValues].filter((f) => f !== '-' && !/^https?:\/\//i.test(f)).at(-1);
    report = formatProblems(planProblems(plan, anchor), { format: 'sarif', command: 'plan', revision: to, toolVersion: packageVersion(), rules: PLAN_RULES, inputs: [] });
  } else report = formatPlanText(plan, head, await chalkFor(app.io, 'stdout'));
  // Made whole before anything is written: a plan that cannot be written gets no summary.
  const inert = output !== 'json' ? await inertValuesChange(sides, from, to, undefined) : undefined;
  writeReport(app.io, { report, ...(output !== 'json' ? { after: `${planSummaryLine(plan)}\n${inert ? `${inertValuesLine(inert)}\n` : ''}` } : {}) });
  app.exitCode = plan.summary.attention ? EXIT_PROBLEMS : EXIT_OK;
}
