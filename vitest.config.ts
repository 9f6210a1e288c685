import { defineConfig } from 'vitest/config';
import { FAST_RUNS, ISOLATED, SLOW_ONLY } from './test/tiers.ts';

const include = ['test/**/*.test.ts', 'src/**/*.test.ts'];
// The cluster suite needs Go and a kube-apiserver: `npm run test:cluster` (vitest.cluster.config.ts).
const exclude = ['test/cluster/**', '**/node_modules/**', ...Object.keys(SLOW_ONLY)];

/** What both projects of the fast tier run with. */
const common = {
  setupFiles: ['test/helpers/yield-between-tests.ts'],
  // A folder for this run's one pack of the repository and its installs (test/helpers/pack.ts).
  globalSetup: ['test/helpers/pack-setup.ts'],
  env: { AGENTPLAT_FUZZ_RUNS: process.env.AGENTPLAT_FUZZ_RUNS ?? FAST_RUNS },
  // The CLI process tests spawn the built bundle; keep workers low on 2-core machines.
  pool: 'forks' as const,
  testTimeout: 0,
  hookTimeout: 0,
};

// The fast tier (`npm test`): every test file but the slow-only ones of test/tiers.ts, the
// randomized suites at a shallow depth. `npm run test:slow` (vitest.slow.config.ts) is the rest.
// Two projects: the files of ISOLATED (test/tiers.ts) each with a module registry of their own,
// every other file sharing its worker's modules (isolate: false; docs/testing.md, "Speed").
export default defineConfig({
  test: {
    include,
    exclude,
    // Tests assert behaviour, never time: a loaded machine may run any test ten times slower, so
    // no test and no hook has a deadline (test/suite-hygiene.test.ts and the ESLint rule
    // agentplat/no-test-deadline keep it so). A child process that never ends is killed by the
    // hang guard in test/cli/binary.ts.
    testTimeout: 0,
    hookTimeout: 0,
    // One pool of forks serves both projects (vitest reads its size and whether it starts a fork
    // per file here, at the root): two forks, each running the files of one project after another.
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    projects: [
      // In a fork, a file of this project finds the modules the files before it loaded.
      { test: { ...common, name: 'shared-modules', include, exclude: [...exclude, ...Object.keys(ISOLATED)], poolOptions: { forks: { isolate: false } } } },
      // Before each file of this project, the fork forgets every module and mock (vitest's isolate).
      { test: { ...common, name: 'isolated', include: Object.keys(ISOLATED), exclude, poolOptions: { forks: { isolate: true } } } },
    ],
  },
});
