import { defineConfig } from 'vitest/config';

// `npm run histories:record`: records the workflow histories the replay test holds the code to.
export default defineConfig({
  test: {
    include: ['test/replay/record-histories.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
