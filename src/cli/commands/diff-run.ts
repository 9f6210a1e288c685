// The work of `agentplat diff`, loaded only when that command runs: its flags mapped to the diff
// operation's request (src/pipeline/diff.ts), what it returns formatted and written, the exit code.
import type { App } from '../app.ts';
import { chalkFor, writeReport } from '../io.ts';
import { lintSettings } from '../lint-settings.ts';
import { eitherSpelling, outputFormat, REPORT_FORMATS, revisionOption } from '../options.ts';
import { packageVersion } from '../../package-version.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../../problems/errors.ts';
import type { Revision } from '../../chart/revisions.ts';
import { locatedChangeLine } from '../../migrate/changes.ts';
import { formatJson, formatText, summaryLine, type JsonDiff } from '../../output/diff/format.ts';
import { summarize } from '../../diff/shown.ts';
import { parseIgnoreRule } from '../../diff/live.ts';
import { formatPreflightJson, formatPreflightText, preflightClean, pruneNote, preflightSummaryLine, summarizePreflight } from '../../output/diff/live-format.ts';
import type { Sides } from '../../pipeline/compare.ts';
import { diffOperation } from '../../pipeline/diff.ts';
import { compareRequest, hasNewSideLayers, inertValuesLine, type SidesFlags } from '../compare-flags.ts';

export interface DiffFlags extends SidesFlags {
  revision?: string;
  fromRevision?: string;
  toRevision?: string;
  /** plan's spellings of --from-revision and --to-revision. */
  from?: string;
  to?: string;
  against?: string;
  output: string;
  brief?: boolean;
  context: string;
  rule: string[];
  cluster?: boolean;
  fieldManager: string;
  applyset?: string;
  ignore: string[];
  kubeconfig?: string;
  kubeContext?: string;
}

const FORMS_HINT = 'compare two values sets (-f OLD --to-values NEW), two revisions (-f V --from-revision A --to-revision B) or a render against manifests (-f V --against FILE|DIR)';

export async function runDiff(flags: DiffFlags, app: App): Promise<void> {
  const settings = lintSettings(app.io.cwd, { revision: flags.revision, rule: flags.rule });
  const output = outputFormat(flags.output, REPORT_FORMATS);
  const context = parseContext(flags.context);
  const fromFlag = eitherSpelling('revisions', [flags.fromRevision, '--from-revision'], [flags.from, '--from']);
  const toFlag = eitherSpelling('revisions', [flags.toRevision, '--to-revision'], [flags.to, '--to']);
  const from = fromFlag.value !== undefined ? revisionOption(fromFlag.value, fromFlag.flag) : settings.revision;
  const to = toFlag.value !== undefined ? revisionOption(toFlag.value, toFlag.flag) : settings.revision;
  const hasToLayers = hasNewSideLayers(flags);
  if (!flags.cluster) {
    const only = [flags.kubeconfig !== undefined && '--kubeconfig', flags.kubeContext !== undefined && '--kube-context', flags.applyset !== undefined && '--applyset', flags.ignore.length > 0 && '--ignore', flags.fieldManager !== 'agentplat' && '--field-manager'].filter((f) => f !== false);
    if (only.length > 0) throw new UsageError(`${only.join(', ')}: only with --cluster`, 'add --cluster to compare the render with the live cluster');
  }
  const ignore = (flags.ignore ?? []).map((text) => {
    const rule = parseIgnoreRule(text);
    if (typeof rule === 'string') throw new UsageError(`--ignore ${text}: ${rule}`, 'e.g. --ignore Deployment/agentplat-controller:spec.replicas or --ignore \'Deployment.apps/*:spec.replicas\'');
    return rule;
  });
  if (flags.cluster && flags.against !== undefined) throw new UsageError('--against and --cluster: the old side is either a manifest or the live cluster', 'drop --against to compare the render with the cluster');
  if (flags.cluster && (flags.fieldManager === '' || /[\s]/.test(flags.fieldManager))) throw new UsageError(`--field-manager "${flags.fieldManager}": a field manager is a name without spaces`, 'the name you apply with, e.g. --field-manager agentplat');
  if (flags.against !== undefined) {
    if (fromFlag.value !== undefined) throw new UsageError(`${fromFlag.flag}: with --against the old side is the manifest, which has no revision`, 'pick the revision of the render with -r or --to-revision');
    if (hasToLayers) throw new UsageError('--to-values and --to-set…: with --against the new side is the render of -f and --set', 'give the values of the render with -f and --set');
  } else if (!hasToLayers && from === to && !flags.cluster) {
    throw new UsageError('nothing to compare: both sides would be the same render', FORMS_HINT);
  }
  /** --cluster with one render: it is both what was applied last and what is applied now. */
  const single = flags.cluster === true && !hasToLayers && from === to;
  const outcome = await diffOperation({
    ...compareRequest(flags, settings, app, { from, to, revisionFlags: [fromFlag.flag, toFlag.flag], hasToLayers }),
    ...(single ? { single } : {}),
    ...(flags.against !== undefined ? { against: flags.against } : {}),
    ...(flags.cluster ? { cluster: { kubeconfig: flags.kubeconfig, context: flags.kubeContext, env: app.io.env, fieldManager: flags.fieldManager, ...(flags.applyset !== undefined ? { applyset: flags.applyset } : {}), ignore } } : {}),
  });
  const { sides } = outcome;
  if (!sides) {
    app.exitCode = EXIT_PROBLEMS;
    return;
  }
  const { before, after, migration, comparison, shown } = sides;
  if (outcome.live) {
    const { result, info } = outcome.live;
    if (output === 'json') {
      writeReport(app.io, { report: formatPreflightJson(outcome.live.shown, result, { tool: { name: 'agentplat', version: packageVersion() }, cluster: info, ...(single ? {} : { from: before.info }), to: after.info, ...(migration ? { migration } : {}) }) });
    } else {
      const prune = pruneNote(result, info);
      writeReport(app.io, {
        before: migrationReport(migration, sides.migrationAt, from, to),
        report: formatPreflightText(outcome.live.shown, result, info, await chalkFor(app.io, 'stdout'), { brief: flags.brief === true, context, revision: to }),
        after: [...result.notes, ...(prune ? [prune] : [])].map((n) => `note: ${n}\n`).join('') + `${preflightSummaryLine(summarizePreflight(result), info, result.applySet)}\n`,
      });
    }
    // Objects the user may not check: the run could not do its work for them (README, exit codes).
    app.exitCode = result.notAllowed.length > 0 ? EXIT_USAGE : preflightClean(result) ? EXIT_OK : EXIT_PROBLEMS;
    return;
  }
  // The whole output is made before any of it is written: the migration report and the summary
  // frame the diff on a terminal, and a diff that cannot be written gets no summary.
  const inert = outcome.valuesWithoutEffect;
  if (output === 'json') {
    writeReport(app.io, { report: formatJson(shown, comparison, { tool: { name: 'agentplat', version: packageVersion() }, from: before.info, to: after.info, ...(migration ? { migration } : {}), ...(inert && inert.inert.length > 0 ? { valuesWithoutEffect: inert.inert } : {}) }) });
  } else {
    writeReport(app.io, {
      before: migrationReport(migration, sides.migrationAt, from, to),
      report: formatText(shown, await chalkFor(app.io, 'stdout'), { brief: flags.brief === true, context }),
      after: `${summaryLine(summarize(comparison))}\n${inertValuesLine(inert)}`,
    });
  }
  app.exitCode = comparison.changes.length === 0 ? EXIT_OK : EXIT_PROBLEMS;
}

/** A revision diff's migration report, written on stderr before the diff (text output only); '' without one. */
function migrationReport(migration: JsonDiff['migration'], at: Sides['migrationAt'], from: Revision, to: Revision): string {
  if (!migration || migration.length === 0) return '';
  return `the old side's values, migrated from revision ${from} to ${to} (as agentplat migrate does):\n${migration.map((c, i) => `  ${locatedChangeLine(c, at?.[i])}`).join('\n')}\n`;
}

function parseContext(raw: string): number {
  // kubectl and validate --cluster spell the kubeconfig context --context; here it is lines of context.
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--context: expected a whole number of lines, found "${raw}"`, `for example -U 5; diff's kubeconfig context is --kube-context ${raw} (helm's spelling), with --cluster`);
  return Number(raw.trim());
}
