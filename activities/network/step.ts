import { LOCK_SPACE, withLocks } from '../../db/queries/locks.js';
import type { TenantStep } from '../tenant-step.js';

/**
 * `network`: the tenant's overlay zone, VNet and subnet in the fabric. No removal: the operator
 * removes the fabric network, and a delete is refused while the fabric still carries the zone.
 *
 * One fabric write at a time across every worker: PVE applies all pending SDN edits at once under
 * one global lock, so concurrent tenants would meet at that lock and fail each other's step. The
 * registry's advisory lock orders them instead, and dies with its worker, unlike PVE's.
 */
export const networkStep: TenantStep<'network'> = {
  name: 'network',
  appliesTo: () => true,
  ensure: ({ deps, tenant: t }) =>
    withLocks(deps.db, async (_tx, lock) => {
      await lock(LOCK_SPACE.fabric, 'sdn');
      return deps.ports.network.ensure({ tenant: t.name, index: t.index, vrfVni: t.vrfVni, vnetId: t.vnet, vnetTag: t.vnetVniBase, subnet: t.subnet, gateway: t.gateway });
    }),
};
