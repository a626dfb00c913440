import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

export default defineConfig({
  test: {
    // Unit tests sit beside the module they test; end-to-end and reliability suites are in test/.
    include: ['test/**/*.test.ts', '{activities,apps,backends,cli,client,contracts,core,db,temporal,workflows}/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/file-cpu.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // 2 cores: files run in a small pool; the shared servers are started once in global setup. Five:
    // the longest files mostly wait (a 75 s clone, parked runs, an API's ride-out of Temporal's
    // absence, kills), so more lanes overlap waits. Measured on fresh clones (2,752 tests): four
    // lanes 593 s of vitest (2,320 s of tests, the cores a third idle), five 544 s, six 584 s (the
    // races file alone 303 -> 457 s under the contention).
    pool: 'forks',
    maxWorkers: 5,
    fileParallelism: true,
    // A pool process runs its files in turn on one module graph: the service, the SDK and the lab
    // are imported once per process instead of once per file (import time summed over the files
    // 137 s -> 17 s; the suite's CPU 1,086 -> 813 s). Each file still starts its own site, database
    // and namespace; what is process-wide (the Temporal Core runtime) is installed once
    // (test/support/runtime.ts).
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});
