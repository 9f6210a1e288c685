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

/**
 * The single executable's start-up snapshot (src/cli/exe-main.ts, dist/sea/main.cjs): the program
 * with the run code of every command but these, which it leaves out. The commands it leaves out
 * run the whole CLI, an asset of the executable, with V8's code cache in the user's cache folder
 * as the npm package does: `validate`, whose code is large and shares little with a render (the
 * snapshot holds a render's compiled code: explain, diff and plan render too), and the language
 * server, which runs as long as the editor. A command not named here goes to the whole CLI.
 * docs/decisions.md, "The executable's start, third round", has the figures.
 */
export const EXE_SNAPSHOT: CliBundle = {
  name: 'sea/main',
  commands: ['render', 'template', 'lint', 'explain', 'diff', 'plan', 'crds', 'values', 'schema', 'docs', 'migrate', 'version', 'completion', 'help', 'cmp'],
};

/**
 * The bundle (dist/<name>.cjs) that runs a command line: the first of `bundles` that holds its
 * command (a line of no command: `cli-core`, which every cut program holds), else the whole CLI,
 * `cli`.
 */
export function bundleFor(argv: readonly string[], bundles: readonly CliBundle[] = CLI_BUNDLES): string {
  const word = commandWord(argv);
  if (word === undefined) return argv.includes('--') ? 'cli' : 'cli-core';
  if (argv.indexOf('--') >= 0 && argv.indexOf('--') < argv.indexOf(word)) return 'cli';
  return bundles.find((b) => b.commands.includes(word))?.name ?? 'cli';
}

/**
 * The name of the code cache (src/code-cache.ts) of a run whose command line names `word`: one per
 * command, since each command compiles other parts of a bundle; a word that is no command's name
 * shares `other`.
 */
export function codeCacheName(word: string | undefined): string {
  return `cli-${word !== undefined && /^[a-z][a-z-]{0,31}$/.test(word) ? word : 'other'}`;
}
