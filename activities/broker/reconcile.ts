import { listBrokerAccounts, type BrokerAccountRow } from '../../db/queries/broker-accounts.js';
import type { ActivityDeps } from '../deps.js';
import { removes, type ObjectOutcome, type ReconcileMode } from '../../core/backend-outcome.js';
import { leftAlone, mayCorrect, mayPrune, type Life } from '../../core/object-life.js';
import { objectPath } from '../../contracts/ids.js';
import { livesOf } from '../object-lives.js';
import { brokerOf, runBrokerStep } from './account-step.js';
import type { BrokerAdapter } from '../../backends/mosquitto/dynsec.js';
import { brokerUsername, tenantUsernamePrefix } from '../../core/names/broker-username.js';

/**
 * A tenant's reconcile of its broker accounts, from one message to the broker for all of them:
 * each settled account the registry holds keeps its role (the ACL patterns exactly) and its client
 * bound to that role alone, enabled. A client the broker lost is `needs-restore`: the service
 * stores only a hash of its password, so only the tenant can restore it (an issue with its
 * password), never a guess. An account a run holds (an issue in flight or parked after a failed
 * step, whose client the broker may already hold before its row is written) is `in-flight` and
 * left exactly as it is. A client or role under the tenant's prefix that no row and no run claims
 * is `unknown`, removed only when the operator asks. A `plan` reports the same and writes nothing.
 */
export async function reconcileTenantBrokerAccounts(deps: ActivityDeps, tenant: string, mode: ReconcileMode): Promise<ObjectOutcome[]> {
  return runBrokerStep(deps, tenant, '*', async () => {
    const broker = brokerOf(deps);
    // The broker's list first: a client an issue makes after it is not in it, one made before is
    // claimed by its run, or by its row once the run has ended.
    const listed = await broker.listClients(tenantUsernamePrefix(tenant));
    const lives = await livesOf(deps, tenant);
    const rows = await listBrokerAccounts(deps.db, tenant);
    const lifeOfAccount = (name: string, registered: boolean) => lives(objectPath.brokerAccount(tenant, name), { registered, finished: registered });
    const outcomes: ObjectOutcome[] = [];
    const settled: BrokerAccountRow[] = [];
    for (const row of rows) {
      const life = lifeOfAccount(row.name, true);
      if (mayCorrect(life)) settled.push(row);
      else outcomes.push(leftAlone(`mqtt client ${brokerUsername(tenant, row.name)}`, life)!);
    }
    outcomes.push(...(await correctAccounts(broker, tenant, settled, mode)));
    const known = new Set(rows.map((r) => brokerUsername(tenant, r.name)));
    for (const username of listed.filter((u) => !known.has(u))) {
      outcomes.push(await stranger(broker, username, lifeOfAccount(username.slice(tenantUsernamePrefix(tenant).length), false), mode));
    }
    return outcomes;
  });
}

/** The settled accounts, from one read of the broker: ensured, or planned. */
async function correctAccounts(broker: BrokerAdapter, tenant: string, rows: BrokerAccountRow[], mode: ReconcileMode): Promise<ObjectOutcome[]> {
  const accounts = rows.map((row) => ({ username: brokerUsername(tenant, row.name), publish: row.publish, subscribe: row.subscribe }));
  const observed = await broker.observeMany(accounts.map((a) => a.username));
  const outcomes: ObjectOutcome[] = [];
  for (const account of accounts) {
    const seen = observed.get(account.username) ?? null;
    if (!seen?.client) {
      outcomes.push({ object: `mqtt client ${account.username}`, result: 'needs-restore' });
      continue;
    }
    outcomes.push(...(await (mode === 'plan' ? broker.plan(account, seen) : broker.ensure(account, seen))));
  }
  return outcomes;
}

/** A client or role the registry does not hold: a run's (left alone), or nobody's (`unknown`, removed by a prune). */
async function stranger(broker: BrokerAdapter, username: string, life: Life, mode: ReconcileMode): Promise<ObjectOutcome> {
  const object = `mqtt client ${username}`;
  if (!mayPrune(life)) return leftAlone(object, life)!;
  const gone = removes(mode, object);
  if (gone) await broker.remove(username);
  return { object, result: gone ? 'removed' : 'unknown' };
}
