// The work of `agentplat diff`, loaded only when that command runs. Each side is made the way
// `render` makes its output (render-run.ts), or read from manifests; then compared object by object.
import type { App } from '../app.ts';
import { chalkFor, writeReport } from '../io.ts';
import { lintSettings } from '../lint-settings.ts';
import { eitherSpelling, outputFormat, REPORT_FORMATS, revisionOption } from '../options.ts';
import { packageVersion } from '../../package-version.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError } from '../../problems/errors.ts';
import { redact } from '../../problems/secrets.ts';
import type { Revision } from '../../chart/revisions.ts';
import { locatedChangeLine } from '../../migrate/changes.ts';
import { formatJson, formatText, summaryLine, type JsonDiff } from '../../output/diff/format.ts';
import { showChanges, summarize } from '../../diff/shown.ts';
import { parseIgnoreRule, preflight, type IgnoreRule } from '../../diff/live.ts';
import { formatPreflightJson, formatPreflightText, preflightClean, pruneNote, preflightSummaryLine, summarizePreflight, type ClusterInfo } from '../../output/diff/live-format.ts';
import { applySetId, parseApplySetFlag } from '../../render/applyset.ts';
import { applySetPreflight, resolveParent, type ApplySetPreflight, type ParentFlag } from '../../diff/applyset-parent.ts';
import { nameProblem } from '../../kube-check/metadata.ts';
import { ClusterError, type ClusterClient, type KubeObject } from '../../cluster/client.ts';
import { compareObjects, DuplicateInputError, type ManifestObject } from '../../diff/objects.ts';
import { compareSides, hasNewSideLayers, inertValuesChange, inertValuesLine, maskFor, type Side, type Sides, type SidesFlags } from '../compare.ts';

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
  const sides = await compareSides(flags, { from, to, revisionFlags: [fromFlag.flag, toFlag.flag], settings, single, ...(flags.against !== undefined ? { against: flags.against } : {}) }, app);
  if (!sides) {
    app.exitCode = EXIT_PROBLEMS;
    return;
  }
  const { before, after, migration, comparison, shown } = sides;
  if (flags.cluster) {
    await runPreflight(flags, app, { before, after, single, migration, migrationAt: sides.migrationAt, from, to, ignore, context, output });
    return;
  }
  // The whole output is made before any of it is written: the migration report and the summary
  // frame the diff on a terminal, and a diff that cannot be written gets no summary.
  const inert = await inertValuesChange(sides, from, to, flags.against);
  if (output === 'json') {
    writeReport(app.io, { report: formatJson(shown, comparison, { tool: { name: 'agentplat', version: packageVersion() }, from: before.info, to: after.info, ...(migration ? { migration } : {}), ...(inert ? { valuesWithoutEffect: inert } : {}) }) });
  } else {
    writeReport(app.io, {
      before: migrationReport(migration, sides.migrationAt, from, to),
      report: formatText(shown, await chalkFor(app.io, 'stdout'), { brief: flags.brief === true, context }),
      after: `${summaryLine(summarize(comparison))}\n${inert ? `${inertValuesLine(inert)}\n` : ''}`,
    });
  }
  app.exitCode = comparison.changes.length === 0 ? EXIT_OK : EXIT_PROBLEMS;
}

/** A revision diff's migration report, written on stderr before the diff (text output only); '' without one. */
function migrationReport(migration: JsonDiff['migration'], at: Sides['migrationAt'], from: Revision, to: Revision): string {
  if (!migration || migration.length === 0) return '';
  return `the old side's values, migrated from revision ${from} to ${to} (as agentplat migrate does):\n${migration.map((c, i) => `  ${locatedChangeLine(c, at?.[i])}`).join('\n')}\n`;
}

/**
 * `diff --cluster`: the new side's render against the live cluster (src/diff/live.ts); the old
 * side, when it is another render, is what was applied last (drift is measured against it).
 */
async function runPreflight(
  flags: DiffFlags,
  app: App,
  run: { before: Side; after: Side; single: boolean; migration: JsonDiff['migration']; migrationAt: Sides['migrationAt']; from: Revision; to: Revision; ignore: IgnoreRule[]; context: number; output: string },
): Promise<void> {
  const { before, after } = run;
  // Checked before any request: a bad --applyset never reaches the cluster.
  const parent = flags.applyset !== undefined ? applySetParent(flags.applyset, flags.namespace) : undefined;
  const desired: ManifestObject[] = after.objects!;
  try {
    compareObjects(run.single ? [] : before.objects!, desired, ['the old side', 'the new side']);
  } catch (err) {
    if (err instanceof DuplicateInputError) throw new UsageError(err.message, 'a manifest holds each object once; kubectl would apply only the last of them');
    throw err;
  }
  const { connect } = await import('../../cluster/connect.ts');
  const client = await connect({ kubeconfig: flags.kubeconfig, context: flags.kubeContext, contextFlag: '--kube-context', namespace: flags.namespace }, { cwd: app.io.cwd, env: app.io.env });
  await checkReleaseNamespace(client, flags.namespace, desired);
  const parentRef = parent === undefined ? undefined : await resolveParent(parent, flags.applyset!, client);
  const applySet = parentRef === undefined ? undefined : applySetId(parentRef);
  const { secrets, mask } = await maskFor(run.single ? [after] : [before, after]);
  const checked = await preflight(client, {
    desired,
    ...(run.single ? {} : { lastApplied: before.objects! }),
    release: flags.releaseName,
    fieldManager: flags.fieldManager,
    ...(applySet !== undefined ? { applySetId: applySet } : {}),
    ignore: run.ignore,
    mask,
    redact: (text) => redact(text, secrets),
  });
  // kubectl's checks and update of the parent, and the members it would really prune.
  const result: ApplySetPreflight = parentRef === undefined ? checked : await applySetPreflight(client, parentRef, applySet!, desired.map((d) => d.object as KubeObject), checked);
  const shown = showChanges(result.comparison, mask);
  const info: ClusterInfo = { context: client.context, server: client.server, fieldManager: flags.fieldManager, ...(applySet !== undefined ? { applySet } : {}) };
  if (run.output === 'json') {
    writeReport(app.io, { report: formatPreflightJson(shown, result, { tool: { name: 'agentplat', version: packageVersion() }, cluster: info, ...(run.single ? {} : { from: before.info }), to: after.info, ...(run.migration ? { migration: run.migration } : {}) }) });
  } else {
    const prune = pruneNote(result, info);
    writeReport(app.io, {
      before: migrationReport(run.migration, run.migrationAt, run.from, run.to),
      report: formatPreflightText(shown, result, info, await chalkFor(app.io, 'stdout'), { brief: flags.brief === true, context: run.context, revision: run.to }),
      after: [...result.notes, ...(prune ? [prune] : [])].map((n) => `note: ${n}\n`).join('') + `${preflightSummaryLine(summarizePreflight(result), info, result.applySet)}\n`,
    });
  }
  // Objects the user may not check: the run could not do its work for them (README, exit codes).
  app.exitCode = result.notAllowed.length > 0 ? EXIT_USAGE : preflightClean(result) ? EXIT_OK : EXIT_PROBLEMS;
}

/**
 * The release's namespace (-n) must exist, unless the render creates it: in a namespace that does
 * not exist every dry run is refused, and the release's objects where it does live would all be
 * listed as not in the render, yours to delete. A user who may not get namespaces goes on.
 */
async function checkReleaseNamespace(client: ClusterClient, namespace: string, desired: readonly ManifestObject[]): Promise<void> {
  if (desired.some(({ object: o }) => o.kind === 'Namespace' && o.apiVersion === 'v1' && (o.metadata as { name?: string } | undefined)?.name === namespace)) return;
  if ((await client.namespaceExists(namespace)) !== false) return;
  throw new ClusterError(`namespace ${namespace} not found (context ${client.context})`, `check the spelling of -n; for a first install create it first (kubectl create namespace ${namespace})`, 404);
}

/**
 * `--applyset`: a Secret or ConfigMap parent as `render --applyset` reads it, or a custom-resource
 * parent spelled as kubectl spells it, `RESOURCE.GROUP/NAME`
 * (`applysets.platform.example.com/agentplat`), whose kind and scope the cluster tells.
 */
function applySetParent(raw: string, namespace: string): ParentFlag {
  const slash = raw.indexOf('/');
  const resource = slash >= 0 ? raw.slice(0, slash) : '';
  if (!resource.includes('.') || resource.endsWith('.')) return parseApplySetFlag(raw, namespace);
  const name = raw.slice(slash + 1);
  const problem = nameProblem(name, 'ApplySet');
  if (problem !== undefined) throw new UsageError(`--applyset ${raw}: "${name}" is not a valid name: ${problem}`, 'e.g. --applyset applysets.platform.example.com/agentplat');
  const dot = resource.indexOf('.');
  return { resource: resource.slice(0, dot), group: resource.slice(dot + 1), name, namespace };
}

function parseContext(raw: string): number {
  // kubectl and validate --cluster spell the kubeconfig context --context; here it is lines of context.
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--context: expected a whole number of lines, found "${raw}"`, `for example -U 5; diff's kubeconfig context is --kube-context ${raw} (helm's spelling), with --cluster`);
  return Number(raw.trim());
}
