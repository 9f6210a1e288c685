// `agentplat values`: prints the defaults file of a revision with its comments, verbatim: the
// linter's positions in the defaults are lines of this output.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { revisionFlag } from '../options.ts';

export function register(program: Command, app: App): void {
  program
    .command('values')
    .description('print the default values of a chart revision (commented, like a chart values.yaml)')
    .addOption(revisionFlag())
    .addHelpText('after', '\nExample:\n  agentplat values -r B > values.yaml   # then edit, and: agentplat lint -f values.yaml')
    .action(async (opts: { revision?: string }) => {
      const { revisionSetting } = await import('../lint-settings.ts');
      const { defaultsFileText } = await import('../../docs/embedded.ts');
      app.io.stdout(defaultsFileText(revisionSetting(app.io.cwd, opts.revision)));
      app.exitCode = 0;
    });
}
