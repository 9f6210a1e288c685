// The shape of scripts/lib/lock.mjs that test/helpers/lock.ts reads.
export function lockOwner(lock: string): number | undefined;
export function tryTake(lock: string): 'taken' | 'busy';
export function release(lock: string): void;
