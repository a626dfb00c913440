import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // 2 cores: files run in a small pool; the shared servers are started once in global setup.
    pool: 'forks',
    maxWorkers: 3,
    fileParallelism: true,
  },
});
