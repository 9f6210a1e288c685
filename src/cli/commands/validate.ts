// `agentplat validate FILE|DIR|GLOB…|-`: checks custom resources of the agentplat.dev group
// against the CRDs (schema and CEL rules) and prints the problems through the shared formatters,
// like lint. The validator (ajv, CEL) is imported only when this command runs.
import { Option, type Command } from 'commander';
import { addClusterOptions, eitherSpelling, revisionFlag, withChoices, type ClusterFlags } from '../options.ts';
import type { App } from '../app.ts';
import { chalkFor } from '../io.ts';
import { packageVersion } from '../../package-version.ts';
import { EXIT_OK, EXIT_PROBLEMS, UsageError } from '../../problems/errors.ts';
import { FORMAT_NAMES, parseFormatName } from '../../problems/format-names.ts';
import { CRD_RULES, crdRuleCatalog } from '../../kube-check/rules.ts';
import { DEFAULT_KUBE_VERSION, KUBE_VERSIONS } from '../../kube-check/kube-versions.ts';
import type { SkippedDoc } from '../../kube-check/object.ts';

interface Options extends ClusterFlags {
  format: string;
  verbose?: boolean;
  strict?: boolean;
  allowEmpty?: boolean;
  cluster?: boolean;
  revision?: string;
  namespace?: string;
  allNamespaces?: boolean;
  kubeVersion?: string;
  kubeContext?: string;
}

/** The flags that only mean something with --cluster (attribute name → as typed). */
const CLUSTER_ONLY: [keyof Options, string][] = [
  ['revision', '--revision'],
  ['kubeconfig', '--kubeconfig'],
  ['context', '--context'],
  ['kubeContext', '--kube-context'],
  ['namespace', '--namespace'],
  ['allNamespaces', '--all-namespaces'],
];

export function register(program: Command, app: App): void {
  const cmd = program
    .command('validate')
    .description('validate Kubernetes manifests: core kinds against the Kubernetes OpenAPI, agentplat.dev custom resources (Agent, ModelConfig, …) against the CRDs, CEL rules included')
    .argument('[paths...]', 'YAML files, directories (every *.yaml and *.yml below, sorted), globs (*, **, ?) or - for standard input')
    .addOption(withChoices(new Option('--format <name>', `problem format: ${FORMAT_NAMES.join(', ')}; the same formats, layout and JSON contract as lint`).default('text'), FORMAT_NAMES))
    .option('-v, --verbose', 'say on stderr which documents were skipped (kinds agentplat has no schema of), one line each')
    .option('--strict', 'documents of kinds agentplat has no schema for are errors (crd/no-schema), not skipped with a note')
    .option('--allow-empty', 'a run that checks no resource passes (by default it fails with crd/nothing-checked)')
    .option('--kube-version <x.y>', `Kubernetes release whose OpenAPI schemas core objects (Deployment, Service, …) are checked against: ${KUBE_VERSIONS.join(' or ')}`, DEFAULT_KUBE_VERSION)
    .option('--cluster', "check the agentplat.dev resources of a live cluster (kubeconfig as kubectl reads it) against the target revision's CRDs, before an upgrade applies them")
    .addOption(revisionFlag('with --cluster: the revision whose CRDs the resources must pass'));
  addClusterOptions(cmd)
    .option('--kube-context <name>', "the same as --context (helm's spelling, as diff --cluster takes it)")
    .option('-n, --namespace <ns>', 'with --cluster: only this namespace (default: every namespace you may list)')
    .option('-A, --all-namespaces', 'with --cluster: every namespace you may list (the default)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  agentplat validate agents/ models/*.yaml\n' +
        '  kubectl kustomize overlays/prod | agentplat validate -\n' +
        '  agentplat validate --format json \'manifests/**/*.yaml\'\n' +
        '  agentplat validate agents/ --format sarif > validate.sarif     # GitHub code scanning\n' +
        '  agentplat validate agents/ --format github                     # pull request annotations\n' +
        '  agentplat validate agents/ --format junit > validate-junit.xml  # GitLab, Jenkins test reports\n' +
        '  agentplat validate --cluster --revision B                      # before an upgrade: what the cluster holds\n' +
        '  agentplat validate --cluster --context prod -n team-a --format json\n' +
        `Rule ids (the SARIF rule table, the JUnit case names):\n  ${wrapIds(Object.keys(CRD_RULES))}\n` +
        'Core Kubernetes kinds are checked against the OpenAPI of --kube-version, agentplat.dev kinds against the CRDs; documents of\n' +
        'other kinds are skipped with a note. The items of a List are checked one by one.\n' +
        'Problems go to stdout; what was checked and what was not, by kind, to stderr (with -v, or when a document went unchecked).\n' +
        'With --cluster, every agentplat.dev resource of the cluster (every served kind, all namespaces you may list)\n' +
        'is checked as the API server will check it once the revision\'s CRDs are applied; server-set metadata and\n' +
        'status are left out. Also reported: resources at a version the new CRD no longer serves, and CRDs whose\n' +
        'status.storedVersions the new CRD would drop (the API server refuses that CRD update).\n' +
        'Exit codes: 0 every resource valid; 1 problems found, or nothing checked; 2 usage error (no input, unreadable file, bad flag),\n' +
        'or with --cluster: no kubeconfig, unknown context, a -n namespace that does not exist, the cluster unreachable or refusing\n' +
        'the request, or any part of what the run reads (named in one line on stderr; the findings of what was read are still printed).',
    )
    .action(async (args: string[], opts: Options) => {
      const format = parseFormatName(opts.format);
      if (opts.cluster) {
        if (args.length > 0) throw new UsageError(`validate --cluster reads the cluster, not files: drop ${args.join(' ')}`, 'run validate FILES… and validate --cluster separately');
        const context = eitherSpelling('contexts', [opts.context, '--context'], [opts.kubeContext, '--kube-context']);
        if (opts.namespace !== undefined && opts.allNamespaces) throw new UsageError('--namespace and --all-namespaces exclude each other', 'give -n NAMESPACE for one namespace, or neither for all');
        const { runValidateCluster } = await import('./validate-cluster-run.ts');
        app.exitCode = await runValidateCluster(app, { ...opts, context: context.value, contextFlag: context.flag, format });
        return;
      }
      const given = CLUSTER_ONLY.filter(([key]) => opts[key] !== undefined);
      if (given.length > 0) throw new UsageError(`${given.map(([, flag]) => flag).join(', ')}: only with --cluster`, 'add --cluster to check the resources of a cluster, or drop the flag');
      if (args.length === 0) throw new UsageError('validate: no input', 'give files, directories, globs or - for standard input; or --cluster to check a live cluster');
      const { validateOperation } = await import('../../pipeline/validate.ts');
      const run = await validateOperation({
        inputs: args,
        reader: app.io,
        ...(opts.kubeVersion !== undefined ? { kubeVersion: opts.kubeVersion } : {}),
        ...(opts.verbose ? { onSkip: (d: SkippedDoc) => app.io.stderr(`${d.file}:${d.line}: skipped ${d.kind}${d.name ? ` ${d.name}` : ''} (agentplat has no schema of ${d.apiVersion} ${d.kind})\n`) } : {}),
        ...(opts.strict ? { strict: true } : {}),
        ...(opts.allowEmpty ? { allowEmpty: true } : {}),
      });
      const { problemWriter } = await import('../../output/formatters/stream.ts');
      // One file at a time: read, checked, its problems written, then the next; only counts are
      // kept, so memory stays flat however many files there are. Output is in file-name order:
      // streamed when the files come in that order (a directory, a glob); --strict's findings
      // are placed at the first object of each kind, known only at the end, so it waits too.
      const { names } = run;
      const writer = problemWriter(app.io.stdout, {
        format,
        command: 'validate',
        rules: crdRuleCatalog(),
        chalk: await chalkFor(app.io, 'stdout'),
        toolVersion: packageVersion(),
        inOrder: opts.strict !== true && names.every((n, i) => i === 0 || names[i - 1]! < n),
      });
      for await (const file of run.files()) writer.file(file.name, file.problems);
      const result = run.finish();
      const counts = writer.end(result.problems);
      // Quiet when every document was checked; a note when some went unchecked (or with -v).
      if ((opts.verbose || result.skipped > 0) && !app.io.outputLost()) app.io.stderr(summaryLine(result.checkedKinds, result.skippedKinds));
      app.exitCode = counts.errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
    });
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `checked 3 resources (Agent 2, ModelConfig 1); not checked, no schema: 2 (apps/v1 Deployment 2)`. */
function summaryLine(checked: Record<string, number>, skipped: Record<string, number>): string {
  const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
  const byKind = (c: Record<string, number>) => Object.keys(c).sort().map((k) => `${k} ${c[k]}`).join(', ');
  let line = `validate: checked ${plural(total(checked), 'resource')}${total(checked) ? ` (${byKind(checked)})` : ''}`;
  if (total(skipped)) line += `; not checked, no schema: ${total(skipped)} (${byKind(skipped)})`;
  return `${line}\n`;
}

/** Ids separated by commas, in lines of at most 96 characters, for --help. */
function wrapIds(ids: readonly string[]): string {
  const lines: string[] = [];
  let line = '';
  for (const id of ids) {
    const next = line ? `${line}, ${id}` : id;
    if (next.length > 96 && line) {
      lines.push(`${line},`);
      line = id;
    } else line = next;
  }
  lines.push(line);
  return lines.join('\n  ');
}
