// `agentplat diff`: what changes between two renders, object by object: two values sets, two
// revisions (the old values migrated), or a render against manifests already written.
// The implementation (diff-run.ts) loads only when the command runs.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { addApiVersionsOption, addClusterOptions, addLayerOptions, addToLayerOptions, collect, markDefaultedNamespace, outputFlag, REPORT_FORMATS, revisionChoice, revisionFlag } from '../options.ts';
import type { DiffFlags } from './diff-run.ts';

export function register(program: Command, app: App): void {
  const cmd = program
    .command('diff')
    .description('show what changes between two renders, object by object: two values sets, two revisions, or a render against manifests')
    .addOption(revisionFlag('chart revision of both sides'))
    .addOption(revisionChoice('--from-revision <A|B>', 'revision of the old side', '--revision'))
    .addOption(revisionChoice('--to-revision <A|B>', 'revision of the new side, the old values migrated to it', '--revision'))
    .addOption(revisionChoice('--from <A|B>', "the same as --from-revision (plan's spelling)"))
    .addOption(revisionChoice('--to <A|B>', "the same as --to-revision (plan's spelling)"));
  addApiVersionsOption(
    addToLayerOptions(addLayerOptions(markDefaultedNamespace(cmd)))
      .option('--against <path>', 'the old side is this manifest instead of a render: a YAML or JSON file (- reads stdin) or a folder written by render --output-dir; the new side renders -f/--set')
      .option('-n, --namespace <ns>', 'namespace of both renders', 'default')
      .option('--release-name <name>', 'release name of both renders', 'agentplat'),
  )
    .option('--kube-version <x.y>', 'Kubernetes version to render for, e.g. 1.29')
    .option('--skip-crds', 'leave out CustomResourceDefinitions on both sides')
    .addOption(outputFlag(REPORT_FORMATS, 'text (a unified diff per object) or json'))
    .option('-q, --brief', 'text: name the objects that differ, without their diffs')
    .option('-U, --context <lines>', 'text: unchanged lines shown around each change', '3')
    .option('--rule <id=level>', 'set a rule to off, info, warn or error (repeatable)', collect, [])
    .option('--cluster', 'compare the render with the live cluster: each object sent as a server-side apply in dry-run (nothing is written)')
    .option('--field-manager <name>', 'with --cluster: the field manager you apply with (kubectl apply --server-side --field-manager NAME)', 'agentplat')
    .option('--applyset <parent>', 'with --cluster: the release is applied as this ApplySet, the parent as kubectl --applyset takes it (NAME, configmaps/NAME, RESOURCE.GROUP/NAME); its members the render lacks would be pruned')
    .option('--ignore <KIND/NAME:PATH>', 'with --cluster: leave this field out of changes and drift; a conflict the apply meets on it stays (repeatable; KIND and NAME take * and ?; PATH as diff or kubectl spells it)', collect, []);
  addClusterOptions(cmd, '--kube-context <name>')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  agentplat diff -f prod.yaml --to-values prod-next.yaml                # two values sets\n' +
        '  agentplat diff -f prod.yaml --from-revision A --to-revision B         # what the upgrade changes\n' +
        '  agentplat diff -f prod.yaml --against out/                           # what a sync of out/ would change\n' +
        '  agentplat diff -f prod.yaml --to-values prod.yaml --to-set controller.replicas=3 -o json\n' +
        '  agentplat diff --cluster -f prod.yaml -n agentplat                    # what an apply would do to the live cluster\n' +
        '  agentplat diff --cluster -f prod.yaml --from-revision A --to-revision B -n agentplat --kube-context prod\n' +
        'The old side is the render of -f/--set (revision --from-revision or -r), or the manifest named by\n' +
        '--against. The new side is the render of the --to-… values, or of the old side\'s values when none\n' +
        'is given (migrated first, as `agentplat migrate` does, when --to-revision is newer).\n' +
        'Objects are matched by API group, kind, namespace and name, and listed sorted by those. Secret\n' +
        'data, secret fields of custom resources and the secret values of your values are masked; a\n' +
        'secret that changed shows as `******** (old value)` / `******** (new value)`.\n' +
        'The diff goes to stdout, problems and a summary line to stderr; colour on a terminal, NO_COLOR and\n' +
        '--no-color honoured.\n' +
        'With --cluster the old side is the live cluster: each rendered object (CRDs first) is sent as a\n' +
        'server-side apply with dryRun=All and strict field validation under --field-manager, never forced,\n' +
        'and the output names what would be created or changed, what the server refuses, fields another\n' +
        'manager owns (conflicts), fields another manager changed since the last apply (drift, against the old\n' +
        'side\'s render when one is given) and the release\'s objects the render no longer holds.\n' +
        'Exit codes (like diff): 0 no differences; 1 differences (the diff is on stdout), or problems in\n' +
        'the values or the manifest (reported like render reports them, nothing on stdout); 2 usage error,\n' +
        'or the cluster could not be asked (unreachable, credentials refused).',
    )
    .action(async (flags: DiffFlags) => {
      const { runDiff } = await import('./diff-run.ts');
      await runDiff(flags, app);
    });
}
