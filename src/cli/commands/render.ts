// `agentplat render`: lints the values, then renders the chart like `helm template`.
// The implementation (render-run.ts) loads only when the command runs.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { addLayerOptions, collect } from '../options.ts';

export interface RenderFlags {
  revision: string;
  values: string[];
  set: string[];
  setString: string[];
  setJson: string[];
  setFile: string[];
  namespace: string;
  releaseName: string;
  apiVersions: string[];
  kubeVersion?: string;
  showOnly: string[];
  output: string;
  outputDir?: string;
  skipCrds?: boolean;
}

export function register(program: Command, app: App): void {
  const cmd = program
    .command('render')
    .description('render the chart to Kubernetes manifests (replaces helm template); lints the values first')
    .option('-r, --revision <A|B>', 'chart revision', 'B');
  addLayerOptions(cmd)
    .option('-n, --namespace <ns>', 'release namespace', 'default')
    .option('--release-name <name>', 'release name', 'agentplat')
    .option('-a, --api-versions <group/version[/Kind]>', 'declare a cluster API (repeatable), e.g. monitoring.coreos.com/v1', collect, [])
    .option('--kube-version <X.Y>', 'Kubernetes version to render for')
    .option('-s, --show-only <source>', 'only the objects of this source path (repeatable), e.g. templates/controller-deployment.yaml', collect, [])
    .option('-o, --output <yaml|json>', 'output format', 'yaml')
    .option('--output-dir <dir>', 'write one file per source path under this directory instead of stdout')
    .option('--skip-crds', 'leave out CustomResourceDefinitions')
    .action(async (flags: RenderFlags) => {
      const { runRender } = await import('./render-run.ts');
      await runRender(flags, app);
    });
}
