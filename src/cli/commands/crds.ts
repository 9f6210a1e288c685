// `agentplat crds`: prints the CRDs alone (the six Resource API kinds and mcpop's MCPServer),
// for GitOps setups that manage CRDs apart from the release.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { MANIFEST_FORMATS, outputFlag, outputFormat, revisionFlag } from '../options.ts';
import { PROTECT_CRDS_HELP } from './render.ts';

export function register(program: Command, app: App): void {
  program
    .command('crds')
    .description('print the CustomResourceDefinitions of the chart and its sub-charts')
    .addOption(outputFlag(MANIFEST_FORMATS, 'document format: yaml or json'))
    .addOption(revisionFlag('chart revision (accepted like every command; both revisions ship the same v1alpha2 CRDs)'))
    .option('--protect-crds', PROTECT_CRDS_HELP)
    .addHelpText('after', '\nExamples:\n  agentplat crds -r B > crds.yaml && kubectl apply --server-side --field-manager agentplat -f crds.yaml\n  agentplat crds --protect-crds > deploy/prod/crds/agentplat-crds.yaml   # what a GitOps tool syncs, never pruned')
    .action(async (opts: { output: string; revision?: string; protectCrds?: boolean }) => {
      const { revisionSetting } = await import('../lint-settings.ts');
      revisionSetting(app.io.cwd, opts.revision);
      const output = outputFormat(opts.output, MANIFEST_FORMATS);
      const { crdsOperation } = await import('../../pipeline/crds.ts');
      const docs = await crdsOperation({ ...(opts.protectCrds ? { protectCrds: true } : {}) });
      const { toJson, toYaml } = await import('../../render/manifests.ts');
      app.io.stdout(output === 'json' ? toJson(docs) : toYaml(docs));
    });
}
