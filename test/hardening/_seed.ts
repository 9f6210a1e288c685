// Fixed seeds for every randomized hardening test, so a failure reproduces.
//
//   AGENTPLAT_FUZZ_SEED=123 npx vitest run test/hardening       # another seed
//   AGENTPLAT_FUZZ_RUNS=10 npx vitest run test/hardening        # ten times the inputs
//
// fast-check reports the seed and the shrunk counterexample's path on failure; the test title
// names the seed too. To replay one failure exactly: FC_PATH from the report (see docs/hardening.md).
import type { Parameters } from 'fast-check';

/** The seed every suite starts from; each property derives its own (seed + a fixed offset). */
export const SEED = envInt('AGENTPLAT_FUZZ_SEED', 20250608);
/** Multiplier of the number of runs (1 in CI). */
export const RUNS_FACTOR = envNumber('AGENTPLAT_FUZZ_RUNS', 1);

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, found ${JSON.stringify(raw)}`);
  return n;
}

function envInt(name: string, fallback: number): number {
  const n = envNumber(name, fallback);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer`);
  return n;
}

/** fast-check parameters: a fixed seed per property, `runs` scaled by AGENTPLAT_FUZZ_RUNS, a replay path when given. */
export function fcParams<T>(offset: number, runs: number): Parameters<T> & { seed: number; numRuns: number } {
  const path = process.env.FC_PATH;
  return {
    seed: SEED + offset,
    numRuns: Math.max(1, Math.round(runs * RUNS_FACTOR)),
    ...(path ? { path } : {}),
    // Every input counts toward the total: no time-based cut-off, the suite's size is its runs.
    endOnFailure: false,
  };
}

/** " (seed N, R runs)": put it in a test's title so the report names how to reproduce it. */
export function seedTitle(offset: number, runs: number): string {
  const p = fcParams(offset, runs);
  return `(seed ${p.seed}, ${p.numRuns} runs)`;
}

/**
 * A property's predicate as an async one that lets the event loop run every 200 inputs. A test
 * file's worker must answer the runner within vitest's fixed RPC timeout (60 s); a long
 * synchronous property on a loaded machine would hold it past that and fail the run with
 * "Timeout calling onTaskUpdate", although every test passed.
 */
export function breathing<A extends unknown[]>(predicate: (...args: A) => boolean | void): (...args: A) => Promise<boolean | void> {
  let runs = 0;
  return async (...args: A) => {
    if (++runs % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
    return predicate(...args);
  };
}
