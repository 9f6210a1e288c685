import { defineConfig } from 'vitest/config';
import { DEEP_RUNS, deepFiles, SLOW_ONLY } from './test/tiers.ts';

// The slow tier (`npm run test:slow`, run by .ci/run after `npm test`): the process-heavy, build
// and recipe tests, and every randomized suite again at its full depth (test/tiers.ts).
export default defineConfig({
  test: {
    include: [...Object.keys(SLOW_ONLY), ...deepFiles()],
    setupFiles: ['test/helpers/yield-between-tests.ts'],
    // A folder for this run's one pack of the repository and its installs (test/helpers/pack.ts).
    globalSetup: ['test/helpers/pack-setup.ts'],
    env: { AGENTPLAT_FUZZ_RUNS: process.env.AGENTPLAT_FUZZ_RUNS ?? DEEP_RUNS },
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // No deadline, as in the fast tier (test/suite-hygiene.test.ts).
    testTimeout: 0,
    hookTimeout: 0,
  },
});
