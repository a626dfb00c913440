import { listBrokerAccounts } from '../../db/queries/broker-accounts.js';
import type { ActivityDeps } from '../deps.js';
import { outcomeOf, type ObjectOutcome, type ReconcileMode } from '../../core/backend-outcome.js';
import { brokerOf, runBrokerStep } from './account-step.js';
import { accountDrift } from './dynsec.js';
import { brokerUsername, tenantUsernamePrefix } from '../../core/names/broker-username.js';

/**
 * A tenant's reconcile of its broker accounts, from one message to the broker for all of them:
 * each account the registry holds keeps its role (the ACL patterns exactly) and its client bound
 * to that role alone, enabled. A client the broker lost is `needs-restore`: the service stores
 * only a hash of its password, so only the tenant can restore it (an issue with its password),
 * never a guess. A client or role under the tenant's prefix that the registry does not hold is
 * `unknown`, removed only when the operator asks. A `plan` reports the same and writes nothing.
 */
export async function reconcileTenantBrokerAccounts(deps: ActivityDeps, tenant: string, mode: ReconcileMode): Promise<ObjectOutcome[]> {
  return runBrokerStep(deps, tenant, '*', async () => {
    const broker = brokerOf(deps);
    const rows = await listBrokerAccounts(deps.db, tenant);
    const accounts = rows.map((row) => ({ username: brokerUsername(tenant, row.name), publish: row.publish, subscribe: row.subscribe }));
    const observed = await broker.observeMany(accounts.map((a) => a.username));
    const outcomes: ObjectOutcome[] = [];
    for (const account of accounts) {
      const seen = observed.get(account.username) ?? null;
      if (!seen?.client) {
        outcomes.push({ object: `mqtt client ${account.username}`, result: 'needs-restore' });
        continue;
      }
      if (mode !== 'plan') {
        outcomes.push(...(await broker.ensure(account, seen)));
        continue;
      }
      const drift = accountDrift(account, seen);
      outcomes.push(
        outcomeOf(`mqtt role ${account.username}`, !!seen.role, drift.role.length > 0, drift.role),
        outcomeOf(`mqtt client ${account.username}`, true, drift.client.length > 0, drift.client),
      );
    }
    const known = new Set(accounts.map((a) => a.username));
    for (const username of await broker.listClients(tenantUsernamePrefix(tenant))) {
      if (known.has(username)) continue;
      if (mode === 'prune') await broker.remove(username);
      outcomes.push({ object: `mqtt client ${username}`, result: mode === 'prune' ? 'removed' : 'unknown' });
    }
    return outcomes;
  });
}
