// `agentplat lsp`: the language server editors start; its work (lsp-run.ts, and through it the
// protocol library) loads only when this command runs.
import type { Command } from 'commander';
import type { App } from '../app.ts';

export function register(program: Command, app: App): void {
  program
    .command('lsp')
    .description('run the language server (Language Server Protocol over stdin/stdout) for values files in editors')
    .option('--stdio', 'talk over standard input and output (the default and only transport; editors pass it)')
    .addHelpText(
      'after',
      '\nAn editor starts this command and talks to it; it is not meant to be run by hand.\n' +
        'Each values file is linted as `agentplat lint` lints it, with the revision, rule levels and\n' +
        '`editor:` settings (layers, namespace, API versions) of the nearest .agentplat.yaml.\n' +
        'docs/editors.md sets it up in VS Code, Neovim and Helix.',
    )
    .action(async () => {
      const { runLsp } = await import('./lsp-run.ts');
      await runLsp(app);
    });
}
