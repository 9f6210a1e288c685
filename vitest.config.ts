import { defineConfig } from 'vitest/config';
import { FAST_RUNS, SLOW_ONLY } from './test/tiers.ts';

// The fast tier (`npm test`): every test file but the slow-only ones of test/tiers.ts, the
// randomized suites at a shallow depth. `npm run test:slow` (vitest.slow.config.ts) is the rest.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    setupFiles: ['test/helpers/yield-between-tests.ts'],
    // A folder for this run's one pack of the repository and its installs (test/helpers/pack.ts).
    globalSetup: ['test/helpers/pack-setup.ts'],
    // The cluster suite needs Go and a kube-apiserver: `npm run test:cluster` (vitest.cluster.config.ts).
    exclude: ['test/cluster/**', '**/node_modules/**', ...Object.keys(SLOW_ONLY)],
    env: { AGENTPLAT_FUZZ_RUNS: process.env.AGENTPLAT_FUZZ_RUNS ?? FAST_RUNS },
    // The CLI process tests spawn the built bundle; keep workers low on 2-core machines.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Tests assert behaviour, never time: a loaded machine may run any test ten times slower, so
    // no test and no hook has a deadline (test/suite-hygiene.test.ts and the ESLint rule
    // agentplat/no-test-deadline keep it so). A child process that never ends is killed by the
    // hang guard in test/cli/binary.ts.
    testTimeout: 0,
    hookTimeout: 0,
  },
});
