import { deleteBrokerAccount, listBrokerAccounts } from '../../db/queries/broker-accounts.js';
import { brokerUsername, tenantUsernamePrefix } from '../../core/names/broker-username.js';
import type { ActivityDeps } from '../deps.js';
import { runBrokerStep } from './account-step.js';

/**
 * Tenant delete, first removal: every broker account of the tenant. The registry's accounts and
 * whatever the broker holds under `<tenant>-` (an issue whose broker step failed and was never
 * repeated leaves a client the registry does not know) are removed, then the rows. Idempotent.
 */
export async function removeTenantBrokerAccounts(deps: ActivityDeps, tenant: string): Promise<void> {
  const broker = deps.ports.broker;
  if (!broker) return;
  await runBrokerStep(deps, tenant, '*', async () => {
    const rows = await listBrokerAccounts(deps.db, tenant);
    const usernames = new Set([...rows.map((r) => brokerUsername(tenant, r.name)), ...(await broker.listClients(tenantUsernamePrefix(tenant)))]);
    for (const username of usernames) await broker.remove(username);
    for (const r of rows) await deleteBrokerAccount(deps.db, tenant, r.name);
  });
}
