// How long V8 waits before it hands a function to its optimizing compiler, for a CLI run.
//
// V8 compiles a hot function with TurboFan on a background thread. A run of this CLI is short
// (tens of milliseconds): a job started in the middle of it usually ends after the run's last
// use of the function, so its result is never used, and the process still waits for it when it
// exits (node joins its worker threads). On a 2-core machine the job also takes the core that the
// garbage collector's helpers need. Six times V8's threshold: `validate` of 200 resources about
// 18% faster (`npm run bench`).
//
// Only a run from the start-up snapshot calls this (src/cli/start.ts): a program using the
// in-process API keeps its own V8 settings, and so does the bundle, whose code caches that API
// shares (V8 accepts a code cache only under the flags it was made with).
import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags that set six times V8's default threshold for TurboFan, for the V8 versions this
 * is known for (the flag's name changed with V8 12); none for another version, where an unknown
 * flag would print an error.
 */
export function tieringFlags(v8Version: string): string[] {
  const [major, minor] = v8Version.split('.').map(Number);
  // Node 20: the interrupt budget, 66 KiB of bytecode by default.
  if (major === 11 && minor === 3) return ['--interrupt-budget=405504'];
  // Node 22 and 24: 3,000 invocations (in units of the function's size) by default.
  if (major === 12 || major === 13) return ['--invocation-count-for-turbofan=18000'];
  return [];
}

export function deferOptimizingCompiler(): void {
  for (const flag of tieringFlags(process.versions.v8)) setFlagsFromString(flag);
}
