import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxOptions, sandboxWatchdogOptional } from './sandbox-watchdog.js';

const require = createRequire(import.meta.url);
const lib = dirname(require.resolve('@temporalio/worker'));

describe('the workflow sandbox without its per-call watchdog (scripts/patch-temporal-worker.mjs)', () => {
  it('the install mended the SDK: no call into the sandbox passes a timeout unconditionally', () => {
    expect(sandboxWatchdogOptional()).toBe(true);
    for (const file of ['reusable-vm.js', 'vm.js'])
      expect(readFileSync(join(lib, 'workflow', file), 'utf8')).not.toContain('timeout: isolateExecutionTimeoutMs,');
  });

  it("so the service's worker turns the watchdog off", () => {
    expect(sandboxOptions()).toEqual({ isolateExecutionTimeout: 0 });
  });
});
