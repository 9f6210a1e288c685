// `agentplat validate --cluster`: loaded (with the cluster client) only when --cluster is given.
// Maps the flags to validateClusterOperation (src/pipeline/validate.ts: connect as kubectl would,
// check every agentplat.dev resource of the cluster against the target revision's CRDs) and prints
// the findings through validate's formatters; what was checked, by kind, and what will be refused
// go to stderr.
import type { App } from '../app.ts';
import { chalkFor, writeReport } from '../io.ts';
import { revisionSetting } from '../lint-settings.ts';
import type { ClusterFlags } from '../options.ts';
import { packageVersion } from '../../package-version.ts';
import type { ClusterClient } from '../../cluster/client.ts';
import { byKind, complete, unreadText } from '../../cluster/validate-cluster.ts';
import { crdRuleCatalog } from '../../kube-check/rules.ts';
import { formatProblems, type FormatName } from '../../output/formatters/index.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from '../../problems/errors.ts';
import { validateClusterOperation } from '../../pipeline/validate.ts';

export interface ValidateClusterFlags extends ClusterFlags {
  format: FormatName;
  revision?: string;
  namespace?: string;
  /** The context flag as typed (`--context`, or its synonym `--kube-context`), for messages. */
  contextFlag?: string;
}

/** Runs the check and prints it; returns the exit code. `client` replaces the connection (tests). */
export async function runValidateCluster(app: App, flags: ValidateClusterFlags, client?: ClusterClient): Promise<number> {
  const revision = revisionSetting(app.io.cwd, flags.revision);
  const { context, result } = await validateClusterOperation({
    revision,
    kubeconfig: flags.kubeconfig,
    context: flags.context,
    ...(flags.contextFlag !== undefined ? { contextFlag: flags.contextFlag } : {}),
    namespace: flags.namespace,
    cwd: app.io.cwd,
    env: app.io.env,
    ...(client ? { client } : {}),
  });
  const report = formatProblems(result.problems, {
    format: flags.format,
    command: 'validate',
    rules: crdRuleCatalog(),
    chalk: await chalkFor(app.io, 'stdout'),
    inputs: result.objects,
    inputNoun: 'resource',
    revision,
    toolVersion: packageVersion(),
  });
  const total = result.objects.length;
  const read = result.read === 'all' ? 'all namespaces' : result.read.length === 0 ? 'no namespace' : `namespace${result.read.length === 1 ? '' : 's'} ${result.read.join(', ')}`;
  const whole = complete(result.unread);
  let line = `validate --cluster (context ${context}, ${read}): checked ${total} resource${total === 1 ? '' : 's'}${total ? ` (${byKind(result.checkedKinds)})` : ''} against the CRDs of revision ${revision}`;
  const refused = Object.values(result.refusedKinds).reduce((a, b) => a + b, 0);
  line += refused > 0 ? `; refused after the upgrade: ${refused} (${byKind(result.refusedKinds)})` : whole ? '; none will be refused' : '; none of these will be refused';
  if (result.refusedCrds.length > 0) line += `; CRD updates the API server will refuse: ${result.refusedCrds.join(', ')}`;
  if (!whole) line += '; the run is incomplete: see "could not read" above';
  // What the run was refused, in one line: the answer covers only what was read.
  const unread = whole
    ? ''
    : `validate: could not read (403 Forbidden): ${unreadText(result.unread)}; ask for get and list on what is named (kubectl auth can-i --list shows what you may do)${flags.namespace === undefined ? ', or check only the namespaces you may read with -n NAMESPACE' : ''}\n`;
  writeReport(app.io, { report, after: `${result.notes.map((note) => `validate: ${note}\n`).join('')}${unread}${line}\n` });
  // A run that could not read all it set out to check has not done its work (docs/commands.md, "Exit codes").
  if (!whole) return EXIT_USAGE;
  return result.problems.some((p) => p.severity === 'error') ? EXIT_PROBLEMS : EXIT_OK;
}
