import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends a run with the plain line `N passed, N failed` (and skipped), which CI and a newcomer read
 * the same way whatever the runner's own formatting, after the ten slowest files: where the
 * suite's time goes is the first thing to read when it grows.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const slowest = modules
      .map((m) => ({ file: m.moduleId.replace(`${process.cwd()}/`, ''), ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (slowest.length > 1) {
      process.stdout.write('\nslowest test files:\n');
      for (const s of slowest) process.stdout.write(`  ${(s.ms / 1000).toFixed(1).padStart(6)} s  ${s.file}\n`);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
