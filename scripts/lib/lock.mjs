// A lock directory holding the pid of its owner: one process at a time does the work it guards
// (test/helpers/lock.ts for test workers, scripts/build-exe.mjs for builds of one executable).
// A lock whose owner has died is taken over.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The pid of the lock's owner, or undefined when it has made the folder and not yet written it. */
export function lockOwner(lock) {
  try {
    return Number(readFileSync(join(lock, 'pid'), 'utf8')) || undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process that took the lock is gone (it died without removing the lock). */
function ownerGone(lock) {
  const pid = lockOwner(lock);
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return e.code === 'ESRCH';
  }
}

/** Takes the lock directory, or makes way for a live owner: 'taken' or 'busy'. A lock whose owner has died is removed (taken on the next try). */
export function tryTake(lock) {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return 'taken';
  } catch {
    if (ownerGone(lock)) rmSync(lock, { recursive: true, force: true });
    return 'busy';
  }
}

/** Gives the lock back. */
export function release(lock) {
  rmSync(lock, { recursive: true, force: true });
}
