// Work that several test files (vitest runs them in parallel worker processes) may each ask for,
// done by one of them: a lock directory serialises the workers, and whoever takes it checks again
// whether the work is still needed.
import { release, tryTake } from '../../scripts/lib/lock.mjs';

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
