// Commander wiring: builds the program, runs it, and turns every failure into an exit code.
// No business logic lives here; each command module turns options into a request.

import { Command, CommanderError, Option } from 'commander';
import { splitShortFlagEquals } from './short-flags.ts';
import { AgentplatError, EXIT_INTERNAL, EXIT_USAGE, UsageError } from '../problems/errors.ts';
import { REVISION_IDS, REVISIONS } from '../chart/revisions.ts';
import type { App } from './app.ts';
import { COMMANDS, type CommandEntry } from './commands/index.ts';
import type { Io } from './io.ts';
import { addValuesFromOption } from './options.ts';
import { packageVersion } from '../package-version.ts';

/**
 * The program with every command, or, given the command line, with only the command it runs:
 * commander builds each option of each command as it is registered (about 2 ms of every start-up
 * for all of them, bench/bench.mjs), and a run needs one. A command line that names no command
 * (help, an unknown word, program flags alone) gets them all, for the listing and the did-you-mean.
 */
export function createProgram(app: App, argv?: readonly string[]): Command {
  const program = new Command('agentplat')
    .description('Render and lint the agent platform chart (revisions A and B) and validate its custom resources.')
    .version(packageVersion(), '-V, --version', 'print the agentplat version')
    .option(NO_COLOR_FLAGS, NO_COLOR_DESCRIPTION)
    // Options of the program go before the command: after it, every word belongs to the command,
    // so `render --version 0.11.0` cannot print the tool's version instead of a release.
    .enablePositionalOptions()
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ optionDescription: optionDescription })
    .exitOverride()
    .configureOutput({
      writeOut: (s) => app.io.stdout(s),
      writeErr: (s) => app.io.stderr(s),
      outputError: (s, write) => write(s),
    });
  program.addHelpText(
    'after',
    '\nExamples:\n' +
      '  agentplat crds -r B | kubectl apply --server-side --field-manager agentplat -f -   # the CRDs first, on their own\n' +
      '  agentplat render -r B -f values.yaml -n agentplat --skip-crds | kubectl apply --server-side --field-manager agentplat -f -\n' +
      '  agentplat lint -r A -f prod.yaml -f overrides.yaml --format sarif > lint.sarif\n' +
      '  agentplat validate agents/\n' +
      '\nThe same options mean the same thing in every command:\n' +
      '  -r, --revision <A|B>   chart revision (default: revision: of .agentplat.yaml, else B)\n' +
      '  -f, --values <file>    values file over the defaults (repeatable, later wins; - reads stdin)\n' +
      '  --format <name>        lint, validate: how problems are printed (text, json, …)\n' +
      '  -o, --output <format>  render, crds, version, diff: the format of what is printed\n' +
      'Results (manifests, reports, documents) go to stdout; render\'s problems, migrate\'s report and\n' +
      'all messages go to stderr.\n' +
      '\nExit codes: 0 success, 1 problems found (errors, or warnings with --strict), 2 usage error or\n' +
      'output that cannot be written, 3 internal error (a bug). diff, like diff(1), also exits 1 when\n' +
      'the two sides differ.\n' +
      'Run `agentplat <command> --help` for the options of a command.',
  );
  // --no-color means NO_COLOR for the whole run, so every command and stream honours it alike.
  // It is read from the program and the command alike (each defaults to color on).
  program.hook('preAction', async (_program, action) => {
    let noColor = false;
    for (let c: Command | null = action; c; c = c.parent) noColor ||= c.opts<{ color?: boolean }>().color === false;
    if (noColor) app.io = { ...app.io, env: { ...app.io.env, NO_COLOR: '1' } };
    // A Flux HelmRelease or Argo CD Application given where values are read (gitops-input.ts).
    const opts = action.opts<{ values?: unknown[]; toValues?: unknown[] }>();
    if ((opts.values?.length ?? 0) > 0 || (opts.toValues?.length ?? 0) > 0 || (action.name() === 'lint' && action.args.length > 0)) {
      const { gitopsPreAction } = await import('./gitops-input.ts');
      await gitopsPreAction(action, app);
    }
  });
  const named = argv === undefined ? undefined : commandOf(argv);
  for (const entry of named && !named.needsAll ? [named] : COMMANDS) entry.register(program, app);
  for (const cmd of program.commands) {
    if (cmd.options.some((o) => o.long === '--values')) addValuesFromOption(cmd);
    addProgramFlagsTo(cmd);
  }
  return program;
}

/** The command a command line runs: its first word after the program's own flags (none takes a value). */
function commandOf(argv: readonly string[]): CommandEntry | undefined {
  const word = argv.find((a) => !a.startsWith('-') || a === '--');
  return word === undefined || word === '--' ? undefined : COMMANDS.find((c) => c.names.includes(word));
}

const NO_COLOR_FLAGS = '--no-color';
const NO_COLOR_DESCRIPTION = 'disable colored output (NO_COLOR is honoured too)';

/**
 * Every command takes --no-color where users write it, after the command too. --version is the
 * program's alone: after a command it is refused before anything runs (a CI step must not pass on
 * a version line, and a helm user's `--version 0.11.0` must not print one into kubectl); the
 * option takes an optional value so that a chart version after it is named in the hint.
 */
function addProgramFlagsTo(cmd: Command): void {
  cmd.option(NO_COLOR_FLAGS, NO_COLOR_DESCRIPTION);
  cmd.addOption(new Option('-V, --version [chart-version]').hideHelp());
  cmd.on('option:version', (value: string | undefined) => {
    throw new UsageError(`${cmd.name()}: --version is an option of agentplat itself, not of a command; nothing was run`, versionHint(value));
  });
}

function versionHint(value: string | undefined): string {
  const revisions = REVISION_IDS.map((r) => `${r} is chart ${REVISIONS[r].chartVersion}`).join(', ');
  const match = REVISION_IDS.find((r) => REVISIONS[r].chartVersion === value?.replace(/^v/, ''));
  const pick = match ? `chart ${REVISIONS[match].chartVersion} is --revision ${match}` : `--revision picks the chart revision (${revisions})`;
  return `${pick}; \`agentplat --version\` prints the tool's version`;
}

/**
 * An option's help line, every default written one way, `(default: B)`: a default given in words
 * (decided at run time, e.g. from .agentplat.yaml) or a string default; none for repeatable and
 * on/off options.
 */
function optionDescription(option: Option): string {
  const shown = option.defaultValueDescription ?? (typeof option.defaultValue === 'string' ? option.defaultValue : undefined);
  return shown ? `${option.description} (default: ${shown})` : option.description;
}

/** Runs the CLI on `argv` (without the node and script entries) and returns the exit code. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const app: App = { io, exitCode: 0 };
  try {
    // `cmp generate` (Argo CD's plugin, cmp.ts) is the render its environment describes.
    if (argv[0] === 'cmp') {
      const { CMP_HELP, cmpCommandLine } = await import('./cmp.ts');
      const line = cmpCommandLine(argv.slice(1), io.env);
      if (line === undefined) {
        io.stdout(CMP_HELP);
        return 0;
      }
      argv = line;
    }
    const program = createProgram(app, argv);
    await program.parseAsync(splitShortFlagEquals(argv, program), { from: 'user' });
    return app.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      return EXIT_USAGE;
    }
    if (err instanceof AgentplatError) {
      io.stderr(`agentplat: ${err.message}\n`);
      if (err.hint) io.stderr(`  hint: ${err.hint}\n`);
      return err.exitCode;
    }
    const e = err as Error;
    io.stderr(`agentplat: internal error: ${e?.message ?? String(err)}\n`);
    if (io.env.AGENTPLAT_DEBUG) io.stderr(`${e?.stack ?? ''}\n`);
    else io.stderr('  this is a bug in agentplat; rerun with AGENTPLAT_DEBUG=1 for details\n');
    return EXIT_INTERNAL;
  }
}
