#!/usr/bin/env node
// Lets the Temporal worker run its workflow sandbox without Node's per-call watchdog, run by npm after
// every install (`postinstall`, after scripts/patch-postgres.mjs).
// Hand-written: npm has no patch step, and the SDK has no option for it (it always passes `timeout`).
//
// @temporalio/worker 1.24.0 enters the workflow sandbox with `vm` `runInContext(..., { timeout })`
// several times per activation. Node starts and joins a thread for each call that has a timeout
// (nodejs/node#47739, open): 150 us of CPU a call against 2 us without, measured here, and 6 of the
// 11 s the workflow thread spent in a profile of the races suite. The mend passes `timeout` only
// when `isolateExecutionTimeout` is above 0; the service's worker sets 0 (apps/worker/worker.ts,
// docs/decisions.md "The workflow sandbox without its per-call watchdog"), every other worker keeps
// the SDK's 5 s.
//
// Idempotent; refuses any other version, so an upgrade is a decision: drop this script once the SDK
// can turn the watchdog off, or Node makes it cheap.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

const VERSION = '1.24.0';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '@temporalio', 'worker');
const FROM = 'timeout: isolateExecutionTimeoutMs,';
const TO = '...(isolateExecutionTimeoutMs > 0 ? { timeout: isolateExecutionTimeoutMs } : {}) /* svc: scripts/patch-temporal-worker.mjs */,';
/** Each file and how many calls it makes with the timeout. */
const FILES = { 'lib/workflow/reusable-vm.js': 4, 'lib/workflow/vm.js': 1 };

function fail(message) {
  process.stderr.write(`patch-temporal-worker: ${message}\n`);
  process.exit(1);
}

if (!existsSync(join(root, 'package.json'))) process.exit(0); // not installed (yet): nothing to mend
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if (version !== VERSION) {
  fail(
    `@temporalio/worker ${version} is installed; this mend is for ${VERSION}. Check whether the release can run the sandbox without a per-call timeout, then update or drop scripts/patch-temporal-worker.mjs.`,
  );
}

for (const [name, calls] of Object.entries(FILES)) {
  const file = join(root, name);
  const before = readFileSync(file, 'utf8');
  const left = before.split(FROM).length - 1;
  const done = before.split(TO).length - 1;
  if (done === calls && left === 0) continue;
  if (left + done !== calls) fail(`${name}: expected ${calls} calls with the sandbox timeout, found ${left} (and ${done} mended)`);
  writeFileSync(file, before.split(FROM).join(TO));
  process.stderr.write(`patch-temporal-worker: mended ${name}\n`);
}
