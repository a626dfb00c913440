import { defineConfig } from 'vitest/config';

// For running one self-contained suite without the shared servers of the global setup.
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000, pool: 'forks' },
});
