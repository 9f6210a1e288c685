// Runs the CLI in-process (src/cli/program.ts `run`) with memory streams, and the contract every
// run must keep whatever its input: an exit code of 0, 1 or 2, no internal error, no stack trace.
import { expect } from 'vitest';
import { STACK_TRACE } from '../cli/binary.ts';
import { runInProcess } from '../cli/in-process.ts';

export interface CliResult {
  code: number;
  out: string;
  err: string;
  /** Node process warnings emitted during the run: the real binary would print them on stderr. */
  warnings: string[];
}

const pendingWarnings: string[] = [];
process.on('warning', (w) => void pendingWarnings.push(w.message));

export async function cli(argv: readonly string[], stdin?: string, cwd?: string): Promise<CliResult> {
  // run() must turn every failure into an exit code; a rejection here is a crash.
  const r = await runInProcess(argv, { cwd: cwd ?? process.cwd(), ...(stdin !== undefined ? { stdin } : {}) });
  return { code: r.code!, out: r.stdout, err: r.stderr, warnings: pendingWarnings.splice(0) };
}

/** The process-level contract, checked in-process: exit 0/1/2, no internal error, no trace, no Node warning. */
export function expectContract(r: CliResult, what: string): void {
  const tail = `\n--- ${what}\n--- stderr:\n${r.err.slice(0, 2000)}`;
  expect(r.code, `internal error or unknown exit code${tail}`).toBeOneOf([0, 1, 2]);
  expect(r.err, `stack trace on stderr${tail}`).not.toMatch(STACK_TRACE);
  expect(r.out, `stack trace on stdout${tail}`).not.toMatch(STACK_TRACE);
  expect(r.err, `internal error${tail}`).not.toContain('internal error');
  expect(r.warnings, `Node warnings (printed on the real stderr)${tail}`).toEqual([]);
}

/** render on an error exit: nothing on stdout (a pipe into kubectl never gets half a release). */
export function expectRenderContract(r: CliResult, what: string): void {
  expectContract(r, what);
  if (r.code !== 0) expect(r.out, `render printed to stdout on exit ${r.code}\n--- ${what}`).toBe('');
  if (r.code === 1) expect(r.err, `exit 1 without a problem on stderr\n--- ${what}`).toMatch(/ error /);
}
