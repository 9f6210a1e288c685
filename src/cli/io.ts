// The only module that touches the real process streams. Everything else writes to an Io,
// so tests run the CLI in-process with memory streams.

import type { ChalkInstance } from 'chalk';
import { PLAIN } from '../plain-style.ts';
import { EXIT_USAGE, UsageError } from '../problems/errors.ts';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Reads all of standard input (for `-f -` and `validate -`); undefined as soon as it holds more than `maxBytes`. */
  /** Standard input as bytes (checked and decoded by the reader, values/load.ts), or text given by a test. */
  readStdin(maxBytes: number): Promise<Uint8Array | string | undefined>;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Which streams are terminals: the color default of text written to each. */
  tty: { stdout: boolean; stderr: boolean };
}

export function createNodeIo(): Io {
  return {
    stdout: writerFor(process.stdout),
    stderr: writerFor(process.stderr),
    readStdin: (maxBytes) => readStreamBounded(process.stdin, maxBytes),
    cwd: workingDirectory(),
    env: process.env,
    tty: { stdout: Boolean(process.stdout.isTTY), stderr: Boolean(process.stderr.isTTY) },
  };
}

/**
 * The process's working directory. One that was deleted (or made unreadable) after the shell
 * entered it is a problem of the environment, not a bug: a usage error (exit 2) in one line.
 */
function workingDirectory(): string {
  try {
    return process.cwd();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
    const why = code === 'ENOENT' ? 'no longer exists (it was deleted or moved)' : `cannot be read (${code})`;
    throw new UsageError(`the working directory ${why}: cd into an existing folder and run agentplat again`);
  }
}

/**
 * Reads a stream (standard input) up to `maxBytes`: undefined, with the stream closed, as soon
 * as it holds more. What is kept never exceeds the limit, whatever flows in.
 */
export async function readStreamBounded(stream: AsyncIterable<Buffer | string> & { destroy?(): void }, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const chunk = typeof c === 'string' ? Buffer.from(c) : c;
    size += chunk.length;
    if (size > maxBytes) {
      stream.destroy?.();
      return undefined;
    }
    chunks.push(chunk);
  }
  // Bytes, not text: decoding here would turn bytes that are not UTF-8 into U+FFFD unseen.
  return Buffer.concat(chunks, size);
}

/**
 * A writer that stops quietly when the reader goes away (`agentplat render | head -1`): EPIPE
 * and other write errors are not a crash with a stack trace; later output is dropped and the
 * run ends with its own exit code.
 */
function writerFor(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    closed = true;
    if (err.code === 'EPIPE') return;
    // Any other failure of a standard stream (EIO, ENOSPC) means output was lost: the run could
    // not do its work, like a usage error (exit 2; a bug is the only other way to fail).
    if (stream !== process.stderr) process.stderr.write(`agentplat: cannot write output: ${err.code ?? err.message}\n`);
    process.exitCode = EXIT_USAGE;
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

export interface MemoryIo extends Io {
  out: string;
  err: string;
}

export function createMemoryIo(opts: { stdin?: string; cwd?: string; env?: Record<string, string> } = {}): MemoryIo {
  const io: MemoryIo = {
    out: '',
    err: '',
    stdout: (t) => void (io.out += t),
    stderr: (t) => void (io.err += t),
    readStdin: async (maxBytes) => (Buffer.byteLength(opts.stdin ?? '') > maxBytes ? undefined : (opts.stdin ?? '')),
    cwd: opts.cwd ?? process.cwd(),
    env: opts.env ?? {},
    tty: { stdout: false, stderr: false },
  };
  return io;
}

/**
 * Colors for text written to `stream`: on when that stream is a terminal or FORCE_COLOR is set
 * (not 0), off under NO_COLOR (the --no-color flag sets it for the run, see program.ts). Chalk is
 * loaded only when colors are on (src/plain-style.ts says why).
 */
export async function chalkFor(io: Io, stream: 'stdout' | 'stderr'): Promise<ChalkInstance> {
  let level: 0 | 1 = io.tty[stream] ? 1 : 0;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '0') level = 1;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') level = 0;
  if (level === 0) return PLAIN;
  const { Chalk } = await import('chalk');
  return new Chalk({ level });
}
