// `agentplat template [NAME]`: `render` in helm's spelling, so a `helm template` command line
// works with the chart argument dropped. One pipeline: the flags become render's and runRender
// does the work. Helm flags that cannot mean anything here are refused with the reason.
import { Option, type Command } from 'commander';
import { UsageError } from '../../problems/errors.ts';
import type { App } from '../app.ts';
import { addApiVersionsOption, addLayerOptions, collect, markDefaultedNamespace, revisionFlag, withChoices } from '../options.ts';
import { APPLYSET_HELP, APPLYSET_HELP_TEXT, PROTECT_CRDS_HELP } from './render.ts';
import type { RenderFlags } from './render-run.ts';

/** helm template's release name when none is given. */
export const HELM_DEFAULT_RELEASE_NAME = 'release-name';

interface TemplateFlags extends Omit<RenderFlags, 'releaseName' | 'output' | 'skipCrds'> {
  includeCrds?: boolean;
  skipCrds?: boolean;
  isUpgrade?: boolean;
  dryRun?: string | boolean;
}

const CHART = 'agentplat renders its own chart, built in: there is no chart to fetch, verify or update (pick the revision with -r A or -r B)';
const CLUSTER = 'agentplat never contacts a cluster: declare what it serves with --kube-version and --api-versions, and check the output with `kubectl apply --dry-run=server -f -`';
const INSTALL = 'it acts when helm installs a release; template prints manifests, and `kubectl apply` does the installing';
const NO_HOOKS = 'the chart has no hooks and no test hooks, so there is nothing to leave out';

/** How pflag spells a boolean after `=`: what helm takes for `--flag=VALUE` of an on/off flag. */
const BOOL_WORDS = ['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False'];

/**
 * helm template flags (Helm 3's and Helm 4's install flags) that change nothing in the manifests
 * template prints: accepted, each with a note on stderr saying it is ignored and why, so a
 * pipeline written for helm keeps working. `values` are the words helm takes after `=` for a flag
 * that needs none (a flag written alone takes no separate value); `value` names a flag that takes one.
 */
export const IGNORED: readonly { flag: string; why: string; values?: readonly string[]; value?: string }[] = [
  ...['--atomic', '--rollback-on-failure', '--wait-for-jobs', '--force', '--force-replace', '--force-conflicts', '--replace', '--create-namespace', '--take-ownership', '--disable-openapi-validation', '--render-subchart-notes', '--hide-notes'].map((flag) => ({ flag, why: INSTALL, values: BOOL_WORDS })),
  // Helm 4: auto (the default), true or false; Helm 3 has no such flag.
  { flag: '--server-side', why: INSTALL, values: ['auto', 'true', 'false'] },
  // Helm 4: watcher (when written alone), hookOnly or legacy; Helm 3: on or off.
  { flag: '--wait', why: INSTALL, values: ['watcher', 'hookOnly', 'legacy', ...BOOL_WORDS] },
  { flag: '--timeout', why: INSTALL, value: '<duration>' },
  { flag: '--description', why: INSTALL, value: '<text>' },
  ...['--no-hooks', '--skip-tests'].map((flag) => ({ flag, why: NO_HOOKS, values: BOOL_WORDS })),
];

/** helm template flags refused here, each with why it cannot apply. */
const HELM_ONLY: readonly [flags: string, why: string][] = [
  ...['--repo', '--username', '--password', '--pass-credentials', '--ca-file', '--cert-file', '--key-file', '--insecure-skip-tls-verify', '--plain-http', '--verify', '--keyring', '--devel', '--dependency-update', '--registry-config', '--repository-cache', '--repository-config', '--content-cache'].map((f): [string, string] => [f, CHART]),
  ...['--validate', '--kube-context', '--kubeconfig', '--kube-apiserver', '--kube-as-user', '--kube-as-group', '--kube-ca-file', '--kube-token', '--kube-tls-server-name', '--kube-insecure-skip-tls-verify', '--burst-limit', '--qps', '--enable-dns'].map((f): [string, string] => [f, CLUSTER]),
  ['-g, --generate-name', 'give the release name as the NAME argument: agentplat template NAME'],
  ['--name-template', 'give the release name as the NAME argument: agentplat template NAME'],
  ['--release-name', 'in helm template it puts --output-dir files under DIR/NAME: write --output-dir DIR/NAME (the release name is the NAME argument)'],
  ['--skip-schema-validation', 'agentplat checks values with its linter, not a JSON schema: turn one rule off with --rule ID=off'],
  ['--debug', 'problems always name the file, line and key; AGENTPLAT_DEBUG=1 adds the stack of an internal error'],
];

function refuseHelmOnly(cmd: Command): void {
  for (const [flags, why] of HELM_ONLY) {
    const option = new Option(`${flags} [value]`).hideHelp();
    cmd.addOption(option);
    cmd.on(`option:${option.name()}`, () => {
      throw new UsageError(`template: helm's ${option.long} has no meaning here; nothing was rendered`, why);
    });
  }
}

/** Adds the ignored flags (hidden from help); returns what the command line gave of them, in order. */
function acceptIgnored(cmd: Command): { flag: (typeof IGNORED)[number]; value: string | null | undefined }[] {
  const given: { flag: (typeof IGNORED)[number]; value: string | null | undefined }[] = [];
  for (const flag of IGNORED) {
    const option = new Option(`${flag.flag} ${flag.value ?? '[value]'}`).hideHelp();
    cmd.addOption(option);
    // The event carries the word as written (`--no-hooks` is not read as the negation of hooks).
    cmd.on(`option:${option.name()}`, (value: string | null | undefined) => given.push({ flag, value }));
  }
  return given;
}

/**
 * The notes for the ignored flags given, and the words they took that were not theirs: commander
 * lets `--wait NAME` take NAME as the value, where helm (whose flag takes a value only after `=`)
 * reads NAME as an argument; those words go back to the arguments, in front. A value after `=`
 * that helm would refuse is refused.
 */
function ignoredFlags(given: ReturnType<typeof acceptIgnored>, rawArgs: readonly string[]): { notes: string[]; displaced: string[] } {
  const notes: string[] = [];
  const displaced: string[] = [];
  for (const { flag: { flag, why, values }, value } of given) {
    if (values && value != null && !values.includes(value)) {
      if (rawArgs.includes(`${flag}=${value}`)) {
        const words = values.filter((v) => !BOOL_WORDS.includes(v) || v === 'true' || v === 'false');
        throw new UsageError(`${flag}: helm takes ${words.slice(0, -1).join(', ')} or ${words.at(-1)} after =, found "${value}"`, `or drop it: template ignores ${flag}`);
      }
      displaced.push(value);
    }
    notes.push(`agentplat: note: helm's ${flag} is ignored: ${why}\n`);
  }
  return { notes, displaced };
}

/** A chart path or archive where helm takes one: agentplat has its chart built in. */
function looksLikeChart(arg: string): boolean {
  return arg.includes('/') || arg === '.' || arg === '..' || /\.tgz$/.test(arg);
}

export function register(program: Command, app: App): void {
  const cmd = program
    .command('template')
    .description('render like `helm template [NAME]`: render with helm\'s flags (CRDs only with --include-crds)')
    .argument('[name]', `release name (default: ${HELM_DEFAULT_RELEASE_NAME}, as helm)`)
    // helm's CHART argument is not part of the usage: the chart is built in. It is still read
    // (as an excess argument) to refuse it with that reason rather than commander's bare error.
    .allowExcessArguments(true)
    .addOption(revisionFlag());
  addApiVersionsOption(addLayerOptions(markDefaultedNamespace(cmd)).option('-n, --namespace <ns>', 'release namespace', 'default'))
    .option('--kube-version <x.y>', 'Kubernetes version to render for, e.g. 1.29')
    .option('-s, --show-only <source>', 'only the objects of this source path, or of every source a helm pattern matches (repeatable), e.g. templates/controller-deployment.yaml or \'templates/rbac/*.yaml\'', collect, [])
    .option('--output-dir <dir>', 'write one file per source path under this directory instead of stdout; the folder is replaced whole (with --show-only: only the selected files are written, the rest stays)')
    .option('--overwrite', 'with --output-dir (not --show-only): replace a non-empty folder that agentplat did not write')
    .option('--include-crds', 'include the CustomResourceDefinitions (left out by default, as helm does)')
    .option('--skip-crds', 'leave out the CustomResourceDefinitions (the default here; accepted as helm accepts it)')
    .option('--protect-crds', `with --include-crds: ${PROTECT_CRDS_HELP}`)
    .option('--is-upgrade', 'render as an upgrade (accepted; the chart renders the same either way)')
    .option('--post-renderer <cmd>', 'pipe the manifests through this command (an executable path or a command on PATH) and print what it prints')
    .option('--post-renderer-args <arg>', 'an argument for the post-renderer (repeatable)', collect, [])
    .option('-l, --labels <key=value>', 'add labels to every object (repeatable, or key=value,key=value)', collect, [])
    .option('--applyset <[kind/]name>', APPLYSET_HELP)
    .addOption(withChoices(new Option('--dry-run [mode]', 'accepted as helm accepts it: client only (the default); server needs a cluster'), ['client']))
    .option('--strict', 'warnings fail the render (exit 1, nothing printed)')
    .option('--rule <id=level>', 'set a rule to off, info, warn or error (repeatable)', collect, [])
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  agentplat template agentplat -f v.yaml -n ns --api-versions a/v1,b/v1 --include-crds\n' +
        '  agentplat template agentplat -r B -f v.yaml --post-renderer ./kustomize.sh | kubectl apply --server-side --field-manager agentplat -f -\n' +
        'The same pipeline as `agentplat render` (lint first, nothing printed on errors), spelled like helm\n' +
        'template with the chart argument dropped: the chart is built in. Differences from render: the\n' +
        `release name is the NAME argument (default ${HELM_DEFAULT_RELEASE_NAME}), and CRDs are printed only with\n` +
        '--include-crds. Helm\'s install-time flags (Helm 3\'s and Helm 4\'s: --wait, --timeout, --atomic,\n' +
        '--rollback-on-failure, --server-side, --take-ownership, --force-replace, --hide-notes, …) change\n' +
        'nothing in the output: they are accepted with a note on stderr. Helm flags that cannot apply here\n' +
        '(chart download, cluster access, the values schema) are usage errors that say why.\n' +
        '--post-renderer CMD gets the manifests on its standard input and prints the manifests to use; its\n' +
        'output is checked as Kubernetes objects, and -l and --applyset apply to it. When it fails, its\n' +
        'exit status and standard error are shown and nothing is printed.\n' +
        '-l/--labels adds labels to every object\'s metadata (not to selectors or pod templates); keys and\n' +
        'values follow Kubernetes\' rules, and a label the chart already sets to another value is refused.\n' +
        APPLYSET_HELP_TEXT +
        'Exit codes: 0 rendered; 1 the values have errors, warnings with --strict, or the post-renderer\n' +
        'failed; 2 usage error, or the output cannot be written.',
    );
  refuseHelmOnly(cmd);
  const ignored = acceptIgnored(cmd);
  cmd.action(async (nameArgument: string | undefined, allFlags: TemplateFlags & Record<string, unknown>, command: Command) => {
    void nameArgument; // the same word as command.args[0]
    const { notes, displaced } = ignoredFlags(ignored, (command.parent as (Command & { rawArgs?: string[] }) | null)?.rawArgs ?? []);
    const [name, chart] = [...displaced, ...command.args];
    const flags = Object.fromEntries(Object.entries(allFlags).filter(([k]) => !IGNORED.some((i) => new Option(i.flag).attributeName() === k))) as unknown as TemplateFlags;
    if (chart !== undefined) {
      throw new UsageError(`template: the chart argument "${chart}" is not taken`, `the chart is built in: write \`agentplat template ${name ?? HELM_DEFAULT_RELEASE_NAME} …\` and pick the revision with -r A or -r B`);
    }
    if (name !== undefined && looksLikeChart(name)) {
      throw new UsageError(`template: "${name}" looks like a chart, not a release name`, `the chart is built in: drop it (\`agentplat template\` uses the release name ${HELM_DEFAULT_RELEASE_NAME}, as helm does), or give a release name`);
    }
    if (flags.includeCrds && flags.skipCrds) throw new UsageError('--include-crds and --skip-crds contradict each other', 'CRDs are left out unless --include-crds; drop one of the two');
    if (flags.dryRun !== undefined && flags.dryRun !== true && flags.dryRun !== 'client' && flags.dryRun !== 'true') {
      if (flags.dryRun === 'server') throw new UsageError('--dry-run=server needs a cluster', CLUSTER);
      throw new UsageError(`--dry-run: unknown mode "${String(flags.dryRun)}"`, 'template renders client-side only: --dry-run or --dry-run=client');
    }
    const { includeCrds, isUpgrade: _isUpgrade, dryRun: _dryRun, skipCrds: _skipCrds, ...rest } = flags;
    app.io.stderr(notes.join(''));
    const render: RenderFlags = { ...rest, releaseName: name ?? HELM_DEFAULT_RELEASE_NAME, output: 'yaml', skipCrds: includeCrds !== true, crdsAdvice: 'template leaves out unless --include-crds: add --include-crds',
      releaseNameOrigin: 'template NAME',
    };
    const { runRender } = await import('./render-run.ts');
    await runRender(render, app);
  });
}
