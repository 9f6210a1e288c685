// Runs the CLI in-process (src/cli/program.ts `run`, memory streams), with the options and the
// result shape of runBin: a test checks the same things either way, and takes a process only for
// what needs one (the launcher, real standard streams, signals, the installed pack).
import { createMemoryIo } from '../../src/cli/io.ts';
import { run } from '../../src/cli/program.ts';
import { breathe } from '../helpers/breathe.ts';
import { ROOT, type RunOptions, type RunResult } from './binary.ts';

/** `agentplat …args` in this process: cwd ROOT unless given, the environment holds only `env`. */
export async function runInProcess(args: readonly string[], opts: RunOptions = {}): Promise<RunResult & { code: number; signal: null }> {
  const stdin = opts.stdin === undefined ? undefined : opts.stdin.toString();
  const io = createMemoryIo({ cwd: opts.cwd ?? ROOT, ...(stdin !== undefined ? { stdin } : {}), ...(opts.env ? { env: opts.env } : {}) });
  const code = await run(args, io);
  // Warnings a run emits arrive on the next tick; the turn also lets a long loop's worker answer vitest.
  await breathe();
  return { code, signal: null, stdout: io.out, stderr: io.err };
}
