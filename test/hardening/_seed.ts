// Fixed seeds for every randomized hardening test, so a failure reproduces.
//
//   AGENTPLAT_FUZZ_SEED=123 npx vitest run test/hardening       # another seed
//   AGENTPLAT_FUZZ_RUNS=10 npx vitest run test/hardening        # ten times the inputs (a deep run)
//
// Every randomized test takes its number of inputs from runs() or fcParams() here, so this one
// variable scales them all; the sizes written in the tests are those of an everyday `npm test`.
//
// fast-check reports the seed and the shrunk counterexample's path on failure; the test title
// names the seed too. To replay one failure exactly: FC_PATH from the report (see docs/hardening.md).
import type { Parameters } from 'fast-check';

/** The seed every suite starts from; each property derives its own (seed + a fixed offset). */
export const SEED = envInt('AGENTPLAT_FUZZ_SEED', 20250608);
/** Multiplier of the number of runs (1 in CI and `npm test`). */
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

/** `base` inputs scaled by AGENTPLAT_FUZZ_RUNS: how many a randomized test runs (at least one). */
export function runs(base: number): number {
  return Math.max(1, Math.round(base * RUNS_FACTOR));
}

/** fast-check parameters: a fixed seed per property, `base` runs scaled by AGENTPLAT_FUZZ_RUNS, a replay path when given. */
export function fcParams<T>(offset: number, base: number): Parameters<T> & { seed: number; numRuns: number } {
  const path = process.env.FC_PATH;
  return {
    seed: SEED + offset,
    numRuns: runs(base),
    ...(path ? { path } : {}),
    // Every input counts toward the total: no time-based cut-off, the suite's size is its runs.
    endOnFailure: false,
  };
}

/** " (seed N, R runs)": put it in a test's title so the report names how to reproduce it. */
export function seedTitle(offset: number, base: number): string {
  const p = fcParams(offset, base);
  return `(seed ${p.seed}, ${p.numRuns} runs)`;
}
