// Work that several test files (vitest runs them in parallel worker processes) may each ask for,
// done by one of them: a lock directory serialises the workers, and whoever takes it checks again
// whether the work is still needed.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Whether the process that took the lock is gone (it died without removing the lock). */
function ownerGone(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return false; // the owner has made the folder and not yet written its pid
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Takes the lock directory, or makes way for a live owner: 'taken' or 'busy'. A lock whose owner has died is taken over. */
function tryTake(lock: string): 'taken' | 'busy' {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return 'taken';
  } catch {
    if (ownerGone(lock)) rmSync(lock, { recursive: true, force: true });
    return 'busy';
  }
}

const release = (lock: string) => rmSync(lock, { recursive: true, force: true });
const WAIT_MS = 250;

/**
 * Runs `work` while `needed()` says so, holding the lock directory `lock`; returns at once when
 * the work is not needed. A live owner is waited for, however slow. The wait blocks this thread:
 * use it for short work (a build of dist/); underLockAsync waits with the event loop running.
 */
export function underLock(lock: string, needed: () => boolean, work: () => void): void {
  while (needed()) {
    if (tryTake(lock) === 'busy') {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, WAIT_MS);
      continue;
    }
    try {
      if (needed()) work();
    } finally {
      release(lock);
    }
    return;
  }
}

/**
 * underLock for long work (npm pack, npm install): the worker that waits, and the one that works,
 * keep answering vitest (its worker RPC waits a fixed 60 s, which a loaded machine can pass).
 */
export async function underLockAsync(lock: string, needed: () => boolean, work: () => Promise<void>): Promise<void> {
  while (needed()) {
    if (tryTake(lock) === 'busy') {
      await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
      continue;
    }
    try {
      if (needed()) await work();
    } finally {
      release(lock);
    }
    return;
  }
}
