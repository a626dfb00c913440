import { LOCK_SPACE, lockWithin, withLocks } from '../../db/queries/locks.js';
import { BackendError } from '../../core/backend-outcome.js';
import type { TenantStep } from '../tenant-step-module.js';
import type { TenantIdentity } from '../../core/identity.js';

/** How long a tenant's network step waits for the others' fabric writes before it fails (retried). */
export const FABRIC_WAIT_MS = 4 * 60_000;

/**
 * `network`: the tenant's overlay zone, VNet and subnet in the fabric. No removal: the operator
 * removes the fabric network, and a delete is refused while the fabric still carries the zone.
 *
 * One fabric write at a time across every worker: PVE applies all pending SDN edits at once under
 * one global lock, so concurrent tenants would meet at that lock and fail each other's step. The
 * registry's advisory lock orders them instead, and dies with its worker, unlike PVE's. The step's
 * activity is bounded for that wait (workflows/activity-options.ts) and heartbeats through it.
 */
export const networkStep: TenantStep<'network'> = {
  name: 'network',
  appliesTo: () => true,
  ensure: ({ deps, tenant: t }) =>
    withLocks(deps.db, async (tx) => {
      if (!(await lockWithin(tx, LOCK_SPACE.fabric, 'sdn', FABRIC_WAIT_MS))) {
        throw new BackendError('fabric', `other tenants' fabric writes held it for ${FABRIC_WAIT_MS / 1000} s`);
      }
      return deps.ports.network.ensure(networkSpec(t));
    }),
  // No fabric lock: a plan reads the fabric and writes nothing.
  plan: ({ deps, tenant: t }) => deps.ports.network.plan(networkSpec(t)),
};

const networkSpec = (t: TenantIdentity) => ({ tenant: t.name, index: t.index, vrfVni: t.vrfVni, vnet: t.vnet, vnetTag: t.vnetVniBase, subnet: t.subnet, gateway: t.gateway });
