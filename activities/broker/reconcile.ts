import { listBrokerAccounts } from '../../db/queries/broker-accounts.js';
import type { ActivityDeps } from '../deps.js';
import type { ObjectOutcome } from '../ensure.js';
import { brokerOf, runBrokerStep } from './account-step.js';
import { brokerUsername, tenantUsernamePrefix } from './username.js';

const differs = (a: readonly string[], b: readonly string[]) => a.length !== b.length || [...a].sort().join('\n') !== [...b].sort().join('\n');

/**
 * A tenant's reconcile of its broker accounts: each account the registry holds keeps its role
 * (the ACL patterns exactly) and its client bound to that role alone, enabled. A client the broker
 * lost is `needs-restore`: the service stores only a hash of its password, so only the tenant can
 * restore it (an issue with its password), never a guess. A client or role under the tenant's
 * prefix that the registry does not hold is `unknown`, removed only when the operator asks.
 */
export async function reconcileTenantBrokerAccounts(deps: ActivityDeps, tenant: string, prune: boolean): Promise<ObjectOutcome[]> {
  return runBrokerStep(deps, tenant, '*', async () => {
    const broker = brokerOf(deps);
    const rows = await listBrokerAccounts(deps.db, tenant);
    const outcomes: ObjectOutcome[] = [];
    for (const row of rows) {
      const username = brokerUsername(tenant, row.name);
      const seen = await broker.observe(username);
      if (!seen?.client) {
        outcomes.push({ object: `mqtt client ${username}`, result: 'needs-restore' });
        continue;
      }
      const roleFields = seen.role
        ? [...(differs(seen.publish, row.publish) ? ['publish'] : []), ...(differs(seen.subscribe, row.subscribe) ? ['subscribe'] : [])]
        : [];
      const clientFields = seen.client.disabled ? ['enabled'] : ['role binding'];
      const ensured = await broker.ensure({ username, publish: row.publish, subscribe: row.subscribe });
      outcomes.push(...ensured.map((o): ObjectOutcome => {
        if (o.result !== 'corrected') return o;
        return { ...o, fields: o.object.startsWith('mqtt role') ? (roleFields.length ? roleFields : ['acls']) : clientFields };
      }));
    }
    const known = new Set(rows.map((r) => brokerUsername(tenant, r.name)));
    for (const username of await broker.listClients(tenantUsernamePrefix(tenant))) {
      if (known.has(username)) continue;
      if (prune) await broker.remove(username);
      outcomes.push({ object: `mqtt client ${username}`, result: prune ? 'removed' : 'unknown' });
    }
    return outcomes;
  });
}
