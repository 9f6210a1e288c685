// Commander wiring: builds the program, runs it, and turns every failure into an exit code.
// No business logic lives here; each command module turns options into a request.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { AgentplatError, EXIT_INTERNAL, EXIT_USAGE } from '../errors.ts';
import type { App } from './app.ts';
import { COMMANDS } from './commands/index.ts';
import type { Io } from './io.ts';

declare const __AGENTPLAT_VERSION__: string | undefined;

let sourceVersion: string | undefined;

/** The bundle has the version built in; a run from source (tests) reads package.json, so both agree. */
export function packageVersion(): string {
  if (typeof __AGENTPLAT_VERSION__ === 'string') return __AGENTPLAT_VERSION__;
  if (sourceVersion === undefined) {
    try {
      sourceVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    } catch {
      sourceVersion = '0.0.0-dev';
    }
  }
  return sourceVersion;
}

export function createProgram(app: App): Command {
  const program = new Command('agentplat')
    .description('Render and lint the agent platform chart (revisions A and B) and validate its custom resources.')
    .version(packageVersion(), '-V, --version', 'print the agentplat version')
    .option('--no-color', 'disable colored output (NO_COLOR is honoured too)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => app.io.stdout(s),
      writeErr: (s) => app.io.stderr(s),
      outputError: (s, write) => write(s),
    });
  program.addHelpText(
    'after',
    '\nExit codes: 0 success, 1 problems found (errors, or warnings with --strict), 2 usage error.',
  );
  for (const register of COMMANDS) register(program, app);
  return program;
}

/** Runs the CLI on `argv` (without the node and script entries) and returns the exit code. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const app: App = { io, exitCode: 0 };
  const program = createProgram(app);
  try {
    await program.parseAsync([...argv], { from: 'user' });
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
