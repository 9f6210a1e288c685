// Shell completion, loaded only by `agentplat completion` and `agentplat complete`: the scripts
// and the matching of partial command lines are @bomb.sh/tab's; this module hands it the commands
// and options as commander declares them, and the values the chart knows (revisions, values keys,
// the sources --show-only takes).
import type { Command, Option } from 'commander';
import { RootCommand, ShellCompDirective, script, type Command as TabCommand } from '@bomb.sh/tab';
import { REVISION_IDS, REVISIONS, parseRevision, type Revision } from '../chart/revisions.ts';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The command the scripts call back with the words typed so far. */
export const COMPLETE_COMMAND = 'complete';

/** Options whose value is a values key written `key=value`. */
const SET_FLAGS = new Set(['set', 'set-string', 'set-json', 'set-file']);

type Add = (value: string, description: string) => void;

/** Everything tab prints goes to stdout through console.log; collected here so the CLI writes it itself. */
function collectConsole(run: () => void): string[] {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  try {
    run();
  } finally {
    console.log = original;
  }
  return lines;
}

export function completionScript(shell: Shell, name: string): string {
  const text = `${collectConsole(() => script(shell, name, name)).join('\n')}\n`;
  if (shell !== 'bash') return text;
  // bash falls back to file names only for a command registered with `-o default`; the script
  // turns that off again for every completion that is not a file (see completeWords). The
  // library's constants are `readonly`, which a second `source` (re-reading ~/.bashrc) reports as
  // an error each: each is set only when it is not set yet.
  const once = text.replace(/^readonly (\w+)=(.*)$/gm, '[[ -n ${$1+set} ]] || readonly $1=$2');
  return `${once}complete -o default -F __${name}_complete ${name}\n`;
}

/** Option values and arguments that are files or folders: the shell completes them, not agentplat. */
const PATH_PLACEHOLDER = /<(file|dir|path)>/;
const PATH_ARGUMENTS = new Set(['file', 'files', 'paths']);

/** Whether the last (partial) word is a file or folder name: the value of -f, --output-dir, or lint's and validate's arguments. */
function completesPath(program: Command, words: readonly string[]): boolean {
  const cmd = program.commands.find((c) => words.slice(0, -1).includes(c.name()));
  if (!cmd) return false;
  const previous = words[words.length - 2];
  const takesValue = (o: Option) => o.required || o.optional;
  const option = previous?.startsWith('-') ? cmd.options.find((o) => o.short === previous || o.long === previous) : undefined;
  if (option && takesValue(option)) return PATH_PLACEHOLDER.test(option.flags);
  if (words[words.length - 1]!.startsWith('-')) return false;
  return cmd.registeredArguments.some((a) => PATH_ARGUMENTS.has(a.name()));
}

/** The revision the typed words ask for (-r/--revision), B otherwise, as the commands default. */
export function revisionOf(words: readonly string[]): Revision {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const raw = w === '-r' || w === '--revision' ? words[i + 1] : w.startsWith('--revision=') ? w.slice(11) : /^-r[^-]/.test(w) ? w.slice(2) : undefined;
    const rev = raw !== undefined ? parseRevision(raw) : undefined;
    if (rev) return rev;
  }
  return 'B';
}

/** Where the candidates for values and sources come from; lazy, so a completion computes only what it offers. */
export interface CompletionData {
  /** Every values key of a revision, keys holding other keys included, and whether it holds a value. */
  keys(rev: Revision): { key: string; leaf: boolean; description: string }[];
  /** The `# Source:` paths a render of the revision's defaults prints. */
  sources(rev: Revision): string[];
}

/** What a choice is offered with: a revision with its chart version, other words as they are. */
function choiceDescription(choice: string): string {
  const revision = REVISION_IDS.find((r) => r === choice);
  return revision ? `chart ${REVISIONS[revision].chartVersion}` : '';
}

function choicesHandler(choices: readonly string[]): (add: Add) => void {
  return (add) => choices.forEach((c) => add(c, choiceDescription(c)));
}

/** What tab completes an option's value with; undefined for an option that takes none. */
function valueHandler(option: Option, rev: Revision, data: CompletionData): ((add: Add) => void) | undefined {
  if (!option.required && !option.optional) return undefined;
  const long = option.long?.replace(/^--/, '') ?? '';
  if (SET_FLAGS.has(long)) return (add) => data.keys(rev).filter((k) => k.leaf).forEach((k) => add(`${k.key}=`, k.description));
  if (long === 'show-only') return (add) => data.sources(rev).forEach((s) => add(s.replace(/^agentplat\//, ''), ''));
  // Every option that takes one of a fixed set of words declares them (options.ts, withChoices).
  if (option.argChoices) return choicesHandler(option.argChoices);
  // A value tab cannot guess (a file, a name): nothing offered, but the option is known to take one.
  return () => undefined;
}

function addOptions(target: TabCommand, cmd: Command, rev: Revision, data: CompletionData): void {
  for (const option of cmd.createHelp().visibleOptions(cmd)) {
    const long = option.long?.replace(/^--/, '');
    if (!long) continue;
    const short = option.short?.replace(/^-/, '');
    const handler = valueHandler(option, rev, data);
    if (handler) target.option(long, option.description, function (add) { handler(add); }, short);
    else if (short) target.option(long, option.description, short);
    else target.option(long, option.description);
  }
}

/** The completion tree of the program's commands and options, with the values of this command line. */
export function completionTree(program: Command, rev: Revision, data: CompletionData): RootCommand {
  const root = new RootCommand();
  addOptions(root, program, rev, data);
  for (const cmd of program.createHelp().visibleCommands(program)) {
    const sub = root.command(cmd.name(), cmd.description());
    addOptions(sub, cmd, rev, data);
    for (const argument of cmd.registeredArguments) {
      if (argument.argChoices) sub.argument(argument.name(), function (add) { choicesHandler(argument.argChoices!)(add); });
    }
    if (cmd.name() === 'explain') sub.argument('key', function (add) { data.keys(rev).forEach((k) => add(k.key, k.description)); });
    if (cmd.name() === 'help') sub.argument('command', function (add) { program.commands.forEach((c) => add(c.name(), c.description())); });
  }
  return root;
}

/**
 * The candidates for the words typed after the program name (the last one partial, '' after a
 * space), in tab's protocol: `value<TAB>description` lines, then `:directive`. A values key for
 * --set is completed up to its `=`, with no space after it; a file name is left to the shell
 * (no candidates, and a directive that lets it complete files).
 */
export function completeWords(program: Command, words: readonly string[], data: CompletionData): string {
  const tree = completionTree(program, revisionOf(words), data);
  const lines = collectConsole(() => tree.parse([...words]));
  if (completesPath(program, words)) return `:${ShellCompDirective.ShellCompDirectiveDefault}\n`;
  const previous = words[words.length - 2]?.replace(/^--?/, '');
  const setKey = previous !== undefined && (SET_FLAGS.has(previous) || previous === 'set');
  if (setKey && lines.length > 0 && /^:\d+$/.test(lines[lines.length - 1]!)) {
    lines[lines.length - 1] = `:${ShellCompDirective.ShellCompDirectiveNoSpace | ShellCompDirective.ShellCompDirectiveNoFileComp}`;
  }
  return `${lines.join('\n')}\n`;
}
