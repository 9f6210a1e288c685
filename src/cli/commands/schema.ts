// `agentplat schema`: prints the values JSON schema of a revision (draft-07), the same one the
// linter checks with; editors read it through a `# yaml-language-server: $schema=` line.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { revisionFlag } from '../options.ts';

export function register(program: Command, app: App): void {
  program
    .command('schema')
    .description('print the JSON schema of the values of a chart revision (for editors and other tools)')
    .addOption(revisionFlag())
    .addHelpText('after', '\nExample:\n  agentplat schema --revision B > agentplat.schema.json\n  # then, first line of your values file:\n  # yaml-language-server: $schema=./agentplat.schema.json')
    .action(async (opts: { revision?: string }) => {
      const { revisionSetting } = await import('../lint-settings.ts');
      const { schemaText } = await import('../../docs/embedded.ts');
      app.io.stdout(schemaText(revisionSetting(app.io.cwd, opts.revision)));
      app.exitCode = 0;
    });
}
