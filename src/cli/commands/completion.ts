// `agentplat completion SHELL` prints a completion script; the script calls the hidden
// `agentplat complete -- WORDS…` for the candidates. Both load their work (../completion.ts and
// the tab library) only when they run, so other commands start as before.
import { Argument, Command } from 'commander';
import type { App } from '../app.ts';

const SHELL_NAMES = ['bash', 'zsh', 'fish'];

export function register(program: Command, app: App): void {
  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELL_NAMES))
    .addHelpText(
      'after',
      '\nInstall (one line; open a new shell afterwards):\n' +
        '  bash:  echo \'source <(agentplat completion bash)\' >> ~/.bashrc   # needs the bash-completion package\n' +
        '  zsh:   echo \'source <(agentplat completion zsh)\' >> ~/.zshrc     # after compinit\n' +
        '  fish:  agentplat completion fish > ~/.config/fish/completions/agentplat.fish\n' +
        'Completes commands, options, the values of --revision, --format, -o and the other flags that take\n' +
        'one of a few words, values keys after --set (and --set-string, --set-json,\n' +
        '--set-file) and explain, and --show-only sources (those a render of the defaults prints).',
    )
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionScript } = await import('../shell-completion.ts');
      app.io.stdout(completionScript(shell, program.name()));
      app.exitCode = 0;
    });
  program
    .command('complete', { hidden: true })
    .description('print completion candidates for a partial command line (the completion scripts call it)')
    .argument('[words...]', 'the words typed after agentplat, the last one partial')
    .action(async (words: string[]) => {
      const [{ completeWords }, data] = await Promise.all([import('../shell-completion.ts'), import('../completion-data.ts')]);
      app.io.stdout(completeWords(program, words, data.completionData));
      app.exitCode = 0;
    });
}
