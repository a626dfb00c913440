import { mkdirSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends a run with the plain line `N passed, N failed` (and skipped), which CI and a newcomer read
 * the same way whatever the runner's own formatting, after the ten slowest files and the ten
 * costliest in CPU: where the suite's time goes is the first thing to read when it grows.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    let brokenFiles = 0;
    for (const m of modules) {
      // A file that fails outside a test (an import, a hook) leaves its tests skipped: it counts.
      if (m.state() === 'failed' && ![...m.children.allTests()].some((t) => t.result().state === 'failed')) brokenFiles++;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    // Every file's figures once: the ten slowest and the ten costliest are printed, all of them written
    // to .test-run/files.json (what the many small files cost together, which the top tens do not say).
    const byFile = modules.map((m) => ({ file: m.moduleId.replace(`${process.cwd()}/`, ''), ms: m.diagnostic().duration, cpuMs: m.meta().cpuMs ?? 0 }));
    const slowest = [...byFile].sort((a, b) => b.ms - a.ms).slice(0, 10);
    if (slowest.length > 1) {
      process.stdout.write('\nslowest test files:\n');
      for (const s of slowest) process.stdout.write(`  ${(s.ms / 1000).toFixed(1).padStart(6)} s  ${s.file}\n`);
      // The suite is CPU-bound on 2 cores: what a file costs in CPU is what it takes from the others.
      const costly = [...byFile].sort((a, b) => b.cpuMs - a.cpuMs);
      const total = costly.reduce((sum, c) => sum + c.cpuMs, 0);
      process.stdout.write(
        `\nCPU by test file (the test process and the processes it started; Temporal's server apart): ${(total / 1000).toFixed(0)} s in all\n`,
      );
      for (const c of costly.slice(0, 10)) process.stdout.write(`  ${(c.cpuMs / 1000).toFixed(1).padStart(6)} s  ${c.file}\n`);
    }
    mkdirSync('.test-run', { recursive: true });
    writeFileSync(
      '.test-run/files.json',
      `${JSON.stringify(
        [...byFile].sort((a, b) => b.cpuMs - a.cpuMs),
        null,
        1,
      )}\n`,
    );
    const broken = brokenFiles ? ` (${brokenFiles} of them a file that failed before its tests ran)` : '';
    process.stdout.write(`\n${passed} passed, ${failed + brokenFiles} failed${broken}, ${skipped} skipped\n`);
  }
}
