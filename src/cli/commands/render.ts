// `agentplat render`: lints the values, then renders the chart like `helm template`.
// The implementation (render-run.ts) loads only when the command runs.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { addLayerOptions, addReleaseOptions, collect, MANIFEST_FORMATS, outputFlag, revisionFlag } from '../options.ts';
import type { RenderFlags } from './render-run.ts';

export const APPLYSET_HELP = 'label the release as an ApplySet (KEP-3659) and print its parent, a Secret (NAME, secrets/NAME) or ConfigMap (configmaps/NAME) in the release namespace: an inventory, not input for kubectl --prune';
/** --protect-crds as render, template and crds describe it. */
export const PROTECT_CRDS_HELP = 'annotate every CustomResourceDefinition so that Flux and Argo CD never prune or delete it (kustomize.toolkit.fluxcd.io/prune: disabled; argocd.argoproj.io/sync-options: Prune=false,Delete=false; argocd.argoproj.io/compare-options: IgnoreExtraneous)';

export const APPLYSET_HELP_TEXT =
  '--applyset NAME labels every object but the CRDs applyset.kubernetes.io/part-of=<id> and adds the\n' +
  'parent with the id label and the annotations listing the members\' kinds and namespaces (KEP-3659;\n' +
  'the id is the one kubectl computes for that parent). It shows the set before it is applied; it is\n' +
  'not input for pruning (kubectl apply --applyset refuses labelled objects). To prune, render without\n' +
  '--applyset and let kubectl make the set: docs/commands.md, "Pruning with ApplySets".\n';

export function register(program: Command, app: App): void {
  const cmd = program
    .command('render')
    .description('render the chart to Kubernetes manifests (replaces helm template); lints the values first')
    .addOption(revisionFlag());
  addReleaseOptions(addLayerOptions(cmd), 'Kubernetes version to render for, e.g. 1.29')
    .option('-s, --show-only <source>', 'only the objects of this source path, or of every source a helm pattern matches (repeatable), e.g. templates/controller-deployment.yaml or \'templates/rbac/*.yaml\'', collect, [])
    .addOption(outputFlag(MANIFEST_FORMATS, 'manifest format: yaml or json'))
    .option('--output-dir <dir>', 'write one file per source path under this directory instead of stdout; the folder is replaced whole, all at once (with --show-only: only the selected files are written, the rest stays)')
    .option('--overwrite', 'with --output-dir (not --show-only): replace a non-empty folder that agentplat did not write (everything in it is deleted)')
    .option('--skip-crds', 'leave out CustomResourceDefinitions')
    .option('--protect-crds', PROTECT_CRDS_HELP)
    .option('--strict', 'warnings fail the render (exit 1, nothing printed)')
    .option('--rule <id=level>', 'set a rule to off, info, warn or error (repeatable)', collect, [])
    .option('--applyset <[kind/]name>', APPLYSET_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  agentplat render -r B -f values.yaml -n agentplat --skip-crds | kubectl apply --server-side --field-manager agentplat -f -\n' +
        '  agentplat render -f values.yaml --set controller.replicas=2 -o json\n' +
        'Manifests go to stdout and nothing else; problems go to stderr. When the values have an error\n' +
        'nothing is printed to stdout, so a pipe into kubectl never gets half a release. Apply the CRDs\n' +
        'on their own first (agentplat crds): kubectl refuses custom resources whose CRD is not established.\n' +
        'Settings come from .agentplat.yaml like lint\'s (revision, rules, strict, maxWarnings), so render\n' +
        'and lint of one folder decide alike; flags win over the file.\n' +
        '--output-dir DIR holds exactly the last render: agentplat marks the folder (a .agentplat-output\n' +
        'file) and replaces it whole; a non-empty folder without that mark is refused unless --overwrite.\n' +
        'With --show-only it writes only the selected files into DIR, as helm does, and deletes nothing.\n' +
        APPLYSET_HELP_TEXT +
        'Exit codes: 0 rendered; 1 the values have errors, or warnings with --strict (see stderr); 2 usage\n' +
        'error, or the output cannot be written.',
    )
    .action(async (flags: RenderFlags) => {
      const { runRender } = await import('./render-run.ts');
      await runRender(flags, app);
    });
}
