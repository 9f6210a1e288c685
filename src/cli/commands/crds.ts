// `agentplat crds`: prints the CRDs alone (the six Resource API kinds and mcpop's MCPServer),
// for GitOps setups that manage CRDs apart from the release.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { MANIFEST_FORMATS, outputFlag, outputFormat, revisionFlag } from '../options.ts';

export function register(program: Command, app: App): void {
  program
    .command('crds')
    .description('print the CustomResourceDefinitions of the chart and its sub-charts')
    .addOption(outputFlag(MANIFEST_FORMATS, 'document format: yaml or json'))
    .addOption(revisionFlag('chart revision (accepted like every command; both revisions ship the same v1alpha2 CRDs)'))
    .addHelpText('after', '\nExample:\n  agentplat crds > crds.yaml && kubectl apply --server-side -f crds.yaml')
    .action(async (opts: { output: string; revision?: string }) => {
      const { revisionSetting } = await import('../lint-settings.ts');
      revisionSetting(app.io.cwd, opts.revision);
      const output = outputFormat(opts.output, MANIFEST_FORMATS);
      const { chartCrdDocs, mcpopCrdDocs } = await import('../../crds/index.ts');
      const { toJson, toYaml } = await import('../../output/manifests.ts');
      const docs = [...chartCrdDocs(), ...mcpopCrdDocs()];
      app.io.stdout(output === 'json' ? toJson(docs) : toYaml(docs));
    });
}
