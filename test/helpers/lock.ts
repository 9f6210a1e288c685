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

/**
 * Runs `work` while `needed()` says so, holding the lock directory `lock`; returns at once when
 * the work is not needed. A lock whose owner has died is taken over; a live owner is waited for,
 * however slow.
 */
export function underLock(lock: string, needed: () => boolean, work: () => void): void {
  if (!needed()) return;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      if (!needed()) return;
      if (ownerGone(lock)) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    if (needed()) work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
