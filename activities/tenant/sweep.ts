import { listReadyTenants } from '../../db/queries/tenants.js';
import type { TenantActivityDeps } from './deps.js';

export function sweepActivities(deps: TenantActivityDeps) {
  return {
    async listReadyTenants(): Promise<string[]> {
      return (await listReadyTenants(deps.db)).map((t) => t.name);
    },
  };
}
