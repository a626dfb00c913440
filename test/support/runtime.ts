import { Runtime } from '@temporalio/worker';

/**
 * The Temporal Core runtime of a test process, with its logs silenced: they are noise in test
 * output, and errors still reach a test as failures. Installed once per process, whichever file
 * comes first: a pool process runs several test files in turn and the runtime is process-wide.
 */
export function installQuietRuntime(): void {
  const g = globalThis as { __quietTemporalRuntime?: boolean };
  if (g.__quietTemporalRuntime) return;
  Runtime.install({ logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} } });
  g.__quietTemporalRuntime = true;
}
