// `agentplat docs`: prints the values reference of a revision as Markdown, generated from the schemas.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import type { SchemaNode } from '../../docs/values-reference.ts';
import { otherRevision } from '../../chart/revisions.ts';
import { revisionFlag } from '../options.ts';

export function register(program: Command, app: App): void {
  program
    .command('docs')
    .description('print the values reference (Markdown) of a chart revision')
    .addOption(revisionFlag())
    .addHelpText('after', '\nExample:\n  agentplat docs -r A > values-reference-a.md')
    .action(async (opts: { revision?: string }) => {
      const { revisionSetting } = await import('../lint-settings.ts');
      const { valuesReference } = await import('../../docs/values-reference.ts');
      const { schemaText } = await import('../../docs/embedded.ts');
      const revision = revisionSetting(app.io.cwd, opts.revision);
      const other = otherRevision(revision);
      const parse = (text: string) => JSON.parse(text) as SchemaNode;
      app.io.stdout(valuesReference(revision, parse(schemaText(revision)), other, parse(schemaText(other))));
      app.exitCode = 0;
    });
}
