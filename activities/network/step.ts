import { LOCK_SPACE, untilUnheld, lockWithin, whileLocked, withLocks } from '../../db/queries/locks.js';
import { BackendError } from '../../core/backend-outcome.js';
import { stopIfCancelled } from '../attempt-cancelled.js';
import type { StepModule } from '../tenant-step-module.js';
import type { TenantIdentity } from '../../core/identity.js';
import type { Db } from '../../db/registry.js';
import { forgetSdnLockToken, lostSdnLockTakes, recordSdnLockTake, sdnLockTakeAnswered, sdnLockTokensHeld } from '../../db/queries/sdn-lock-tokens.js';
import { newTakeMarker, type SdnLockTokens } from '../../backends/proxmox/sdn-lock.js';
import { tenantsHeldAlone } from '../../db/queries/tenant-leases.js';

/** How long a tenant's network step waits for the others' fabric writes before it fails (retried). */
export const FABRIC_WAIT_MS = 4 * 60_000;

/**
 * `network`: the tenant's overlay zone, VNet and subnet in the fabric. No removal: the operator
 * removes the fabric network, and a delete is refused while the fabric still carries the zone.
 *
 * Group commit (issue 32): PVE applies all pending SDN edits at once under one global lock, and an
 * apply reloads every node's network in turn (seconds per node). So a tenant writes its edits as
 * pending (`stage`: its reads, then its writes under the registry's `sdn` lock), then joins the apply round
 * (`sdn-apply`): one apply at a time, and the tenants that staged while it ran are carried by the
 * next one, which the first of them to reach the round starts. Each tenant's step still ends only
 * when its own VNet runs on the workload node, and fails alone when its own edits are refused.
 * The registry's advisory locks order the workers and die with them, unlike PVE's.
 */
export const networkStep: StepModule<'network'> = {
  name: 'network',
  appliesTo: () => true,
  ensure: async ({ deps, tenant: t }) => {
    const spec = networkSpec(t);
    // What a lock's holder asks of the registry goes on a connection of its own: this step waits
    // for the fabric locks holding a pooled connection, and so may every other create at once, so
    // from the pool the holder's query could wait for ever for a connection only its end frees
    // (the lock tokens it records; who is still on the way, asked by a gathering round).
    const own = deps.ownConnection ?? deps.db;
    const tokens = registryLockTokens(own);
    // Only the writes wait for the other tenants' (the registry's `sdn` lock); the reads before them do not.
    // A cancelled attempt writes nothing (`stopIfCancelled`): checked once the lock is held, for
    // each tenant of a batch of writes in its own activity's context.
    const staged = await deps.ports.network.stage(
      spec,
      tokens,
      (writes) =>
        withLocks(deps.db, async (tx) => {
          if (!(await lockWithin(tx, LOCK_SPACE.fabric, 'sdn', FABRIC_WAIT_MS))) throw busy('fabric writes');
          return writes();
        }),
      stopIfCancelled,
    );
    return deps.ports.network.settle(spec, staged, {
      round: (work) => inApplyRound(deps.db, work),
      roundEnded: () => applyRoundEnded(deps.db),
      tokens,
      heldAlone: () => tenantsHeldAlone(own),
    });
  },
  // No fabric lock: a plan reads the fabric and writes nothing.
  plan: ({ deps, tenant: t }) => deps.ports.network.plan(networkSpec(t)),
};

/**
 * The PVE SDN lock tokens every worker of the service took, in the registry: a lock one worker
 * left when it died is then released by the next, with its token, and no other lock ever is.
 */
const registryLockTokens = (db: Db): SdnLockTokens => ({
  taking: async () => {
    const marker = newTakeMarker();
    await recordSdnLockTake(db, marker);
    return marker;
  },
  taken: (token, marker) => sdnLockTakeAnswered(db, marker, token),
  abandoned: (marker) => forgetSdnLockToken(db, marker),
  released: (token) => forgetSdnLockToken(db, token),
  held: () => sdnLockTokensHeld(db),
  lostTakes: (ms) => lostSdnLockTakes(db, ms),
});

type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;

/** One apply round at a time across every worker; its apply's own writes exclude the stagers. */
function inApplyRound<T>(db: Db, work: (exclusive: Exclusive) => Promise<T>): Promise<T> {
  return withLocks(db, async (tx) => {
    if (!(await lockWithin(tx, LOCK_SPACE.fabric, 'sdn-apply', FABRIC_WAIT_MS))) throw busy('fabric applies');
    stopIfCancelled();
    const exclusive: Exclusive = async (inner) => {
      const r = await whileLocked(tx, LOCK_SPACE.fabric, 'sdn', FABRIC_WAIT_MS, async () => {
        stopIfCancelled();
        return inner();
      });
      if (!r.ran) throw busy('fabric writes');
      return r.value;
    };
    return work(exclusive);
  });
}

/** Once no apply round runs: the `sdn-apply` lock free of an exclusive holder, waited for without taking it. */
async function applyRoundEnded(db: Db): Promise<boolean> {
  const was = await untilUnheld(db, LOCK_SPACE.fabric, 'sdn-apply', FABRIC_WAIT_MS);
  if (was === 'timed-out') throw busy('fabric applies');
  return was === 'held';
}

const busy = (what: string) => new BackendError('fabric', `other tenants' ${what} held it for ${FABRIC_WAIT_MS / 1000} s`);

/** What the adapter is asked to hold for a tenant, from its identity. */
export const networkSpec = (t: TenantIdentity) => ({
  tenant: t.name,
  index: t.index,
  vrfVni: t.vrfVni,
  vnet: t.vnet,
  vnetTag: t.vnetVniBase,
  subnet: t.subnet,
  gateway: t.gateway,
});
