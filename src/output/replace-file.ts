// Writes a file all at once (`migrate --in-place`, `render --output-dir --show-only`): the new text
// goes to a temporary file beside it, which is then renamed over it, so the file is either the old
// one or the new one, never half written, and any failure leaves it as it was.

import { closeSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError, writeFailureReason } from '../problems/errors.ts';

/** Why a write failed, in the user's terms. */
export function writeHint(code: string | undefined): string {
  return writeFailureReason(code) ?? 'the file system there does not take new folders and files';
}

/**
 * Writes `text` into a new temporary file beside `target` (`.NAME.agentplat-PID.tmp`, with the
 * permission bits `mode`), synced to disk, and returns its path; renaming it over `target` then
 * replaces the file in one step. On a failure the temporary file is removed and the error thrown.
 */
export function writeTempBeside(target: string, text: string, mode: number): string {
  const temp = join(dirname(target), `.${basename(target)}.agentplat-${process.pid}.tmp`);
  try {
    const fd = openSync(temp, 'wx', mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    removeTemp(temp);
    throw err;
  }
  return temp;
}

/** Removes a temporary file of writeTempBeside, if it is there. */
export function removeTemp(temp: string): void {
  try {
    unlinkSync(temp);
  } catch {
    // it was never made, or is already gone
  }
}

/**
 * Replaces the file at `path` (a symbolic link: the file it points to) with `text`, keeping its
 * permission bits. `shown` names it in messages. A failure is a UsageError (exit 2), and the file
 * is unchanged.
 */
export function replaceFile(path: string, text: string, shown: string): void {
  let target: string;
  let mode: number;
  try {
    target = realpathSync(path);
    mode = statSync(target).mode & 0o7777;
  } catch (err) {
    throw failed(shown, 'reading it', err);
  }
  let temp: string | undefined;
  try {
    temp = writeTempBeside(target, text, mode);
    renameSync(temp, target);
  } catch (err) {
    if (temp) removeTemp(temp);
    throw failed(shown, 'writing it', err);
  }
}

function failed(shown: string, doing: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return new UsageError(`${shown}: cannot replace the file in place: ${doing} failed (${code ?? String(err)})`, `${writeHint(code)}; the file is unchanged`);
}
