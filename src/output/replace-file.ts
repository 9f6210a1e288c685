// Writes a file all at once (`migrate --in-place`): the new text goes to a temporary file beside
// it, which is then renamed over it, so the file is either the old one or the new one, never half
// written, and any failure leaves it as it was.

import { closeSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../problems/errors.ts';
import { writeHint } from './output-dir.ts';

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
  const temp = join(dirname(target), `.${basename(target)}.agentplat-${process.pid}.tmp`);
  try {
    const fd = openSync(temp, 'wx', mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // it was never made, or is already gone
    }
    throw failed(shown, 'writing it', err);
  }
}

function failed(shown: string, doing: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return new UsageError(`${shown}: cannot replace the file in place: ${doing} failed (${code ?? String(err)})`, `${writeHint(code)}; the file is unchanged`);
}
