import { listReadyTenants } from '../../db/queries/tenants.js';
import type { TenantActivityDeps } from './deps.js';

export function sweepActivities(deps: TenantActivityDeps) {
  return {
    /** The ready tenants a sweep reconciles, with their indexes (for each child run's summary). */
    listReadyTenants: (): Promise<{ name: string; index: number }[]> => listReadyTenants(deps.db),
  };
}
