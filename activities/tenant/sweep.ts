import { listReadyTenants, listTenantStatuses } from '../../db/queries/tenants.js';
import type { ActivityDeps } from '../deps.js';

/** Why a sweep leaves a tenant alone: the state table allows reconcile from `ready` only. */
export const SKIP_REASONS: Record<string, string> = {
  provisioning: 'provisioning: its create has not finished; the create repeated resumes it',
  deleting: 'deleting: its delete has not finished; the delete repeated finishes it',
};

export function sweepActivities(deps: ActivityDeps) {
  return {
    /** Kept for sweeps started before `sweepTenants` existed (their histories replay against it). */
    listReadyTenants: (): Promise<{ name: string; index: number }[]> => listReadyTenants(deps.db),

    /** The ready tenants a sweep reconciles (with their indexes, for each child run's summary), and the ones it skips, with why. */
    async sweepTenants(): Promise<{ ready: { name: string; index: number }[]; skipped: { name: string; reason: string }[] }> {
      const all = await listTenantStatuses(deps.db);
      return {
        ready: all.filter((t) => t.status === 'ready').map(({ name, index }) => ({ name, index })),
        skipped: all.filter((t) => t.status !== 'ready').map((t) => ({ name: t.name, reason: SKIP_REASONS[t.status] ?? t.status })),
      };
    },
  };
}
