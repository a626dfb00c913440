import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** What scripts/patch-temporal-worker.mjs leaves in the SDK's sandbox. */
const MARK = 'svc: scripts/patch-temporal-worker.mjs';

/** Whether the installed SDK passes the sandbox timeout only when it is above 0 (the install's mend ran). */
export function sandboxWatchdogOptional(): boolean {
  try {
    const lib = dirname(require.resolve('@temporalio/worker'));
    return readFileSync(join(lib, 'workflow', 'reusable-vm.js'), 'utf8').includes(MARK);
  } catch {
    return false;
  }
}

/**
 * The workflow sandbox entered without Node's per-call watchdog thread (docs/decisions.md, "The
 * workflow sandbox without its per-call watchdog"): a quarter of the worker's CPU went to starting
 * and joining it. Where the install's mend did not run (`npm install --ignore-scripts`), the SDK's
 * own 5 s stays, as 0 would be refused by Node's `vm`.
 */
// Not in the SDK's public `WorkerOptions` ("not exposed at the moment"), yet read from them like the rest.
export const sandboxOptions = (): { isolateExecutionTimeout?: number } => (sandboxWatchdogOptional() ? { isolateExecutionTimeout: 0 } : {});
