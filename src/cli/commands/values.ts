// `agentplat values`: prints the defaults file of a revision with its comments. Its first line
// tells editors where the schema is; inside the package that is ../schemas/, which means nothing
// in the user's repository, so the printed copy points at the file `agentplat schema` writes.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { revisionOption } from '../options.ts';

export function register(program: Command, app: App): void {
  program
    .command('values')
    .description('print the default values of a chart revision (commented, like a chart values.yaml)')
    .option('-r, --revision <A|B>', 'chart revision', 'B')
    .addHelpText('after', '\nExample:\n  agentplat values -r B > values.yaml   # then edit, and: agentplat lint -f values.yaml')
    .action(async (opts: { revision: string }) => {
      const { defaultsFileText } = await import('../../docs/embedded.ts');
      const revision = revisionOption(opts.revision);
      app.io.stdout(
        defaultsFileText(revision).replace(
          /^# yaml-language-server: \$schema=.*$/m,
          `# Editor schema: agentplat schema --revision ${revision} > agentplat.schema.json\n# yaml-language-server: $schema=./agentplat.schema.json`,
        ),
      );
      app.exitCode = 0;
    });
}
