import { lifeOf, lifeText } from '../../core/object-life.js';
import { objectPath } from '../../contracts/ids.js';
import { registryNow, runsOfObjects } from '../../db/queries/object-runs.js';
import { listReadyTenants, listTenantStatuses } from '../../db/queries/tenants.js';
import type { ActivityDeps } from '../deps.js';
import { isCanary } from '../../core/canaries.js';

/** Why a sweep leaves a tenant alone: the state table allows reconcile from `ready` only. */
export const SKIP_REASONS: Record<string, (holder: string) => string> = {
  provisioning: (holder) => `provisioning: its create has not finished (${holder}); the create repeated resumes it`,
  deleting: (holder) => `deleting: its delete has not finished (${holder}); the delete repeated finishes it`,
};

export function sweepActivities(deps: ActivityDeps) {
  return {
    /** Kept for sweeps started before `sweepTenants` existed (their histories replay against it). */
    listReadyTenants: (): Promise<{ name: string; index: number }[]> => listReadyTenants(deps.db),

    /**
     * The ready tenants a sweep reconciles (with their indexes, for each child run's summary), and
     * the ones it skips, with why: the run that holds each (core/object-life.ts), for an operator
     * to find it by its id.
     */
    async sweepTenants(): Promise<{ ready: { name: string; index: number }[]; skipped: { name: string; reason: string }[] }> {
      // The isolation check's canaries are its own to keep (core/canaries.ts): not in a sweep's work or counts.
      const all = (await listTenantStatuses(deps.db)).filter((t) => !isCanary(t.name));
      const notReady = all.filter((t) => t.status !== 'ready');
      const runs = await runsOfObjects(
        deps.db,
        notReady.map((t) => objectPath.tenant(t.name)),
      );
      const now = await registryNow(deps.db);
      const holder = (name: string) => lifeText(lifeOf({ registered: true, finished: false }, runs.get(objectPath.tenant(name)) ?? [], now));
      return {
        ready: all.filter((t) => t.status === 'ready').map(({ name, index }) => ({ name, index })),
        skipped: notReady.map((t) => ({ name: t.name, reason: SKIP_REASONS[t.status]?.(holder(t.name)) ?? t.status })),
      };
    },
  };
}
