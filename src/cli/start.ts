// Runs the CLI on the real process: the one place that turns run()'s result into the exit code.
// The bundle's main module (src/cli/main.ts) calls it.
import { AgentplatError } from '../problems/errors.ts';
import { createNodeIo, type NodeIo } from './io.ts';
import { run } from './program.ts';

export function start(argv: readonly string[]): void {
  let io: NodeIo;
  try {
    io = createNodeIo();
  } catch (err) {
    // The process itself cannot be read (a deleted working directory): no command can run.
    if (!(err instanceof AgentplatError)) throw err;
    process.stderr.write(`agentplat: ${err.message}\n`);
    process.exitCode = err.exitCode;
    return;
  }
  run(argv, io).then(
    (code) => {
      // A failed write to stdout (io.ts) has already set a non-zero code; keep it.
      if (!process.exitCode) process.exitCode = code;
      // Everything is written: exit now rather than have node tear the heap down page by page
      // (1 to 5 ms, more for validate's larger heap). Not while a write is pending (pipes are
      // asynchronous on macOS) or a stream has failed (its error event still reports the failure).
      if (io.settled()) process.exit();
    },
    (err: unknown) => {
      process.stderr.write(`agentplat: internal error: ${(err as Error)?.message ?? String(err)}\n`);
      process.exitCode = 3;
    },
  );
}
