// The only module that touches the real process streams. Everything else writes to an Io,
// so tests run the CLI in-process with memory streams.

import type { ChalkInstance } from 'chalk';
import { fstatSync, writeSync } from 'node:fs';
import { PLAIN } from '../plain-style.ts';
import { EXIT_USAGE, UsageError, writeFailureReason } from '../problems/errors.ts';

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
  /**
   * True once standard output could not be written (a full disk, a failed device; not a reader
   * that went away, `| head`): the failure is already reported in one line and the exit code is 2.
   * A command then leaves out what describes that output (its summary line, notes).
   */
  outputLost(): boolean;
}

/** The process's own streams, and whether everything written to them has gone out. */
export interface NodeIo extends Io {
  /** No write is pending and no stream has failed (start.ts exits at once only then). */
  settled(): boolean;
}

export function createNodeIo(): NodeIo {
  const out = writerFor(1);
  const err = writerFor(2);
  return {
    stdout: out.write,
    stderr: err.write,
    readStdin: (maxBytes) => readStreamBounded(process.stdin, maxBytes),
    cwd: workingDirectory(),
    env: process.env,
    tty: {
      get stdout() {
        return out.isTTY();
      },
      get stderr() {
        return err.isTTY();
      },
    },
    settled: () => out.settled() && err.settled(),
    outputLost: () => out.lost(),
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
 * A writer of standard output (fd 1) or error (fd 2) that stops quietly when the reader goes away
 * (`agentplat render | head -1`): EPIPE and other write errors are not a crash with a stack trace;
 * later output is dropped and the run ends with its own exit code.
 *
 * Output to a file, a pipe or a socket (`| kubectl apply`, `> out.yaml`, a CI runner) is written
 * straight to the descriptor: Node's stream for it would load the stream modules, and for a pipe
 * the net module too, about 1.5 to 2 ms of every start-up (bench/bench.mjs). A terminal or a
 * device (/dev/null) goes through Node's stream, as does a pipe that turns out to be non-blocking
 * (EAGAIN: the stream waits for the reader). Node writes files and pipes synchronously on Linux
 * too, so the order and completeness of the output are the same.
 */
function writerFor(fd: 1 | 2): { write(text: string): void; settled(): boolean; isTTY(): boolean; lost(): boolean } {
  let closed = false;
  let lost = false;
  let stream: NodeJS.WriteStream | undefined;
  let direct: boolean | undefined;
  const fail = (err: NodeJS.ErrnoException): void => {
    // A stream's failure is seen at the write (stream.errored) and again as its error event.
    if (closed) return;
    closed = true;
    if (err.code === 'EPIPE') return;
    // Any other failure of a standard stream (EIO, ENOSPC) means output was lost: the run could
    // not do its work, like a usage error (exit 2; a bug is the only other way to fail).
    lost = true;
    if (fd !== 2) process.stderr.write(`agentplat: ${cannotWriteLine('standard output', err)}\n`);
    process.exitCode = EXIT_USAGE;
  };
  const streamOf = (): NodeJS.WriteStream => {
    if (!stream) {
      stream = fd === 1 ? process.stdout : process.stderr;
      stream.on('error', fail);
    }
    return stream;
  };
  const isDirect = (): boolean => (direct ??= fileOrPipe(fd));
  return {
    write(text) {
      if (closed) return;
      if (!isDirect()) {
        const s = streamOf();
        s.write(text);
        // A device written synchronously (/dev/full) has failed already; its error event comes
        // later, after whatever the run writes next. Seen now, the run can leave its summary out.
        if (s.errored) fail(s.errored as NodeJS.ErrnoException);
        return;
      }
      const bytes = Buffer.from(text, 'utf8');
      let at = 0;
      try {
        while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return fail(err as NodeJS.ErrnoException);
        direct = false;
        streamOf().write(bytes.subarray(at));
      }
    },
    settled: () => stream === undefined || (stream.writableLength === 0 && !stream.errored && !stream.destroyed),
    isTTY: () => !isDirect() && Boolean(streamOf().isTTY),
    lost: () => lost,
  };
}

/** The one line that reports a failed write of `what`: why in words, the system's code after it. */
function cannotWriteLine(what: string, err: NodeJS.ErrnoException): string {
  const reason = writeFailureReason(err.code);
  if (reason !== undefined) return `cannot write to ${what}: ${reason} (${err.code})`;
  return `cannot write to ${what}: ${err.code !== undefined ? `the write failed (${err.code})` : err.message}`;
}

/** The descriptor is a file, a pipe or a socket (not a terminal or another device). */
function fileOrPipe(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    return st.isFile() || st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

/**
 * Writes a command's output, made whole beforehand: `before` on stderr (what the report rests on,
 * such as a migration), the report on stdout, then `after` on stderr (its summary, notes) unless
 * the report could not be written, when the one line saying so is all that follows it.
 */
export function writeReport(io: Io, out: { before?: string; report: string; after?: string }): void {
  if (out.before) io.stderr(out.before);
  io.stdout(out.report);
  if (out.after && !io.outputLost()) io.stderr(out.after);
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
    outputLost: () => false,
  };
  return io;
}

/**
 * Whether text written to a stream is colored: on a terminal, unless FORCE_COLOR says otherwise;
 * FORCE_COLOR `0` or `false` turns colors off even on a terminal, any other value (the empty one
 * too, as chalk reads it) turns them on in a pipe. NO_COLOR (not empty) turns them off over all of
 * that; the --no-color flag sets it for the run (program.ts).
 */
export function colorsOn(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force === undefined) return isTTY;
  return force !== '0' && force.toLowerCase() !== 'false';
}

/**
 * Colors for text written to `stream` (colorsOn decides). Chalk is loaded only when colors are on
 * (src/plain-style.ts says why).
 */
export async function chalkFor(io: Io, stream: 'stdout' | 'stderr'): Promise<ChalkInstance> {
  const level = colorsOn(io.env, io.tty[stream]) ? 1 : 0;
  if (level === 0) return PLAIN;
  const { Chalk } = await import('chalk');
  return new Chalk({ level });
}
