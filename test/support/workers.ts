import { hostname } from 'node:os';
import { activityWorkers, waitForActivityPollers } from './history.js';
import type { TestSite } from './site.js';

/**
 * Two worker processes and no in-process worker, both polling before the test goes on, so a
 * test of cross-worker serialization really runs on two workers; `workers()` tells which of them
 * started an activity (of a type, when given: the contended write) since they came up (the test
 * asserts both did).
 */
export async function twoWorkers(
  site: TestSite,
): Promise<{ identities: string[]; workers(activityType?: string): Promise<Set<string>>; stop(): Promise<void> }> {
  await site.stopWorker();
  const since = new Date();
  const children = [site.spawnWorker(), site.spawnWorker()];
  // The SDK's default identity: `${pid}@${hostname}`.
  const identities = children.map((c) => `${c.pid}@${hostname()}`);
  await waitForActivityPollers(site, identities);
  return {
    identities,
    workers: (activityType?: string) => activityWorkers(site, since, activityType),
    async stop() {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
      await site.startWorker();
    },
  };
}
