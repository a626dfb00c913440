import { LOCK_SPACE, lockWithin, withLocks } from '../../db/queries/locks.js';
import type { ObjectOutcome } from '../../core/backend-outcome.js';
import { committers, GroupCommit } from '../group-commit.js';
import { updateTenant } from '../../db/queries/tenants.js';
import type { Db } from '../../db/registry.js';
import { BackendError } from '../../core/backend-outcome.js';
import { seal } from '../../db/seal.js';
import type { StepModule, TenantStepContext } from '../tenant-step-module.js';
import { newLogToken } from '../secrets.js';
import type { LogStorePort } from './port.js';

/**
 * The tenant's log tokens: the registry's; or, when it holds none (a restore after the registry
 * was lost, or a site that added its log store later), the ones the gateway still admits for the
 * tenant, so workloads shipping logs with them keep working; else new ones. Kept sealed.
 */
async function tokensOf({ deps, tenant: t, secrets }: TenantStepContext): Promise<{ ingestToken: string; readToken: string }> {
  if (secrets.logIngestToken && secrets.logReadToken) return { ingestToken: secrets.logIngestToken, readToken: secrets.logReadToken };
  const tokens = (await deps.ports.logStore!.heldTokens(t.name)) ?? { ingestToken: newLogToken(), readToken: newLogToken() };
  await updateTenant(deps.db, t.name, { logIngestToken: seal(deps.keys, tokens.ingestToken), logReadToken: seal(deps.keys, tokens.readToken) });
  return tokens;
}

/** How long a tenant's log-store step waits for the others' gateway writes before it fails (retried). */
export const GATEWAY_WAIT_MS = 60_000;

/**
 * One gateway write at a time across every worker. Caddy's admin API resolves `/id/<id>` to the
 * object's path under its read lock and applies the change later under its write lock
 * (caddyserver/caddy admin.go, handleConfigID), and the adapter inserts each tenant's routes at
 * index 0: a concurrent insert between the two moves every path, so a DELETE by @id removes
 * whichever route then sits at the old index, another tenant's. Found by the crash test with
 * concurrent deletes: a route left behind, another tenant's gone. Concurrent writes through the
 * lab's admin proxy also fail outright; the 'many tenants at once' test of
 * test/integration/log-store.test.ts fails without this lock, both ways.
 */
export function oneGatewayWrite<T>(db: Db, work: () => Promise<T>): Promise<T> {
  return withLocks(db, async (tx) => {
    if (!(await lockWithin(tx, LOCK_SPACE.logGateway, 'routes', GATEWAY_WAIT_MS))) {
      throw new BackendError('caddy', `other tenants' gateway writes held it for ${GATEWAY_WAIT_MS / 1000} s`);
    }
    return work();
  });
}

/**
 * One group commit of the gateway's routes per process (activities/group-commit.ts), under the
 * same registry lock as `oneGatewayWrite`: the tenants whose routes are asked for while a write
 * runs are carried by the next one, one Caddy reload for all of them. A real site's fill of 8
 * callers had its tenants wait ~2.5 s a round for their 16 reloads one after another (issue 48).
 */
const gatewayCommit = committers<LogStorePort, Parameters<LogStorePort['ensure']>[0], ObjectOutcome[]>(
  (logStore) => new GroupCommit({ space: LOCK_SPACE.logGateway, key: 'routes', waitMs: GATEWAY_WAIT_MS, what: 'caddy' }, (specs) => logStore.write(specs)),
);

/** `log-store`: the gateway routes that admit the tenant's ingest and read tokens to its account. */
export const logStoreStep: StepModule<'log-store'> = {
  name: 'log-store',
  appliesTo: (site) => site.logStore !== undefined,
  async ensure(ctx) {
    const t = ctx.tenant;
    const spec = { tenant: t.name, accountId: t.logAccountId, ...(await tokensOf(ctx)) };
    const logStore = ctx.deps.ports.logStore!;
    return withLocks(ctx.deps.db, async (tx) => (await gatewayCommit(logStore, 'routes').submit(tx, spec)).value);
  },
  /** Without tokens in the registry a reconcile adopts the gateway's or mints new ones: the plan reports the routes as they stand. */
  async plan({ deps, tenant: t, secrets }) {
    const held =
      secrets.logIngestToken && secrets.logReadToken
        ? { ingestToken: secrets.logIngestToken, readToken: secrets.logReadToken }
        : ((await deps.ports.logStore!.heldTokens(t.name)) ?? { ingestToken: '', readToken: '' });
    return deps.ports.logStore!.plan({ tenant: t.name, accountId: t.logAccountId, ...held });
  },
  remove: async ({ deps, tenant: t }) => {
    if (deps.ports.logStore) await oneGatewayWrite(deps.db, () => deps.ports.logStore!.remove({ tenant: t.name }));
  },
};
