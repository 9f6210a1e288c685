// Process entry of the bundled CLI.
import { createNodeIo } from './io.ts';
import { run } from './program.ts';

const io = createNodeIo();
run(process.argv.slice(2), io).then(
  (code) => {
    // A failed write to stdout (io.ts) has already set a non-zero code; keep it.
    if (!process.exitCode) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`agentplat: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    process.exitCode = 3;
  },
);
