// The work of `agentplat plan`, loaded only when that command runs: its flags mapped to the plan
// operation's request (src/pipeline/plan.ts), the plan formatted and written, the exit code.
import type { App } from '../app.ts';
import { chalkFor, writeReport } from '../io.ts';
import { lintSettings } from '../lint-settings.ts';
import { eitherSpelling, outputFormat, PLAN_FORMATS, revisionOption } from '../options.ts';
import { packageVersion } from '../../package-version.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../../problems/errors.ts';
import { formatPlanJson, formatPlanText, planProblems, planSummaryLine, PLAN_RULES } from '../../output/diff/plan-format.ts';
import { planOperation } from '../../pipeline/plan.ts';
import { compareRequest, hasNewSideLayers, inertValuesLine, type SidesFlags } from '../compare-flags.ts';

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
  const hasToLayers = hasNewSideLayers(flags);
  if (!hasToLayers && from === to) throw new UsageError('nothing to plan: both sides would be the same render', FORMS_HINT);
  const { sides, plan, valuesWithoutEffect: inert } = await planOperation({
    ...compareRequest(flags, settings, app, { from, to, revisionFlags: [fromFlag.flag, toFlag.flag], hasToLayers }),
    renderOld: oldSideCommand(flags, from),
    // The text and JSON reports name the keys of a values change that change nothing rendered.
    ...(output !== 'sarif' ? { valuesWithoutEffect: true } : {}),
  });
  // Values that do not render: the plan could not be made (the problems are on stderr).
  if (!sides || !plan) {
    app.exitCode = EXIT_USAGE;
    return;
  }
  const head = { from: sides.before.info, to: sides.after.info, ...(sides.migration ? { migrated: { from, to } } : {}) };
  let report: string;
  if (output === 'json') report = formatPlanJson(plan, { ...head, tool: { name: 'agentplat', version: packageVersion() }, ...(inert && inert.inert.length > 0 ? { valuesWithoutEffect: inert.inert } : {}) });
  else if (output === 'sarif') {
    const { formatProblems } = await import('../../output/formatters/index.ts');
    // The new side's last values file (the one that wins), else the old side's: where the change is made.
    const anchor = [...flags.values, ...flags.toValues].filter((f) => f !== '-' && !/^https?:\/\//i.test(f)).at(-1);
    report = formatProblems(planProblems(plan, anchor), { format: 'sarif', command: 'plan', revision: to, toolVersion: packageVersion(), rules: PLAN_RULES, inputs: [] });
  } else report = formatPlanText(plan, head, await chalkFor(app.io, 'stdout'));
  // Made whole before anything is written: a plan that cannot be written gets no summary.
  writeReport(app.io, { report, ...(output !== 'json' ? { after: `${planSummaryLine(plan)}\n${inertValuesLine(inert)}` } : {}) });
  app.exitCode = plan.summary.attention ? EXIT_PROBLEMS : EXIT_OK;
}
