// The CLI bundles the package ships, and which one a command line runs (src/cli/launch.ts).
// dist/cli.cjs holds every command. The cut bundles hold the same program with the run code of
// every other command left out (scripts/build.mjs builds them from this table): a command line
// of the commands that start most often reads, and V8 takes the code cache of, a smaller script.
// docs/decisions.md, "Start-up on Node 24, second round", has what each saves.

export interface CliBundle {
  /** dist/<name>.cjs */
  name: string;
  /** The commands whose run code it holds (the first word of the command lines it runs). */
  commands: readonly string[];
}

export const CLI_BUNDLES: readonly CliBundle[] = [
  // render and template share their run code, and lint is most of what render runs
  { name: 'cli-render', commands: ['render', 'template', 'lint'] },
  // a command line that names no command runs no command's code: --version, --help, a usage error
  { name: 'cli-core', commands: [] },
];

/**
 * The command a command line names, as the program reads it (src/cli/program.ts): its first word
 * after the program's own flags, none of which takes a value. `--` first (commander then reads
 * the next word as the command) names no word here, and such a line runs the whole bundle.
 */
export function commandWord(argv: readonly string[]): string | undefined {
  return argv.find((a) => !a.startsWith('-'));
}

/** The bundle (dist/<name>.cjs) that runs a command line: a cut one when it holds the command, else the whole CLI. */
export function bundleFor(argv: readonly string[]): string {
  const word = commandWord(argv);
  if (word === undefined) return argv.includes('--') ? 'cli' : 'cli-core';
  if (argv.indexOf('--') >= 0 && argv.indexOf('--') < argv.indexOf(word)) return 'cli';
  return CLI_BUNDLES.find((b) => b.commands.includes(word))?.name ?? 'cli';
}
