import { defineConfig } from 'vitest/config';

// The cluster suite (npm run test:cluster): checks against a real kube-apiserver built from its Go
// module. Kept out of vitest.config.ts so that `npm test` needs Node alone.
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    globalSetup: ['test/cluster/_global-setup.ts'],
    // One control plane at a time: each file starts its own, and the machine has few cores.
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
    fileParallelism: false,
    // Generous bounds against hangs only (a control plane start, a corpus of thousands of requests).
    testTimeout: 1_200_000,
    hookTimeout: 300_000,
  },
});
