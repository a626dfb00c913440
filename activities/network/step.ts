import type { TenantStep } from '../tenant-step.js';

/**
 * `network`: the tenant's overlay zone, VNet and subnet in the fabric. No removal: the operator
 * removes the fabric network, and a delete is refused while the fabric still carries the zone.
 */
export const networkStep: TenantStep<'network'> = {
  name: 'network',
  appliesTo: () => true,
  ensure: ({ deps, tenant: t }) =>
    deps.ports.network.ensure({ tenant: t.name, index: t.index, vrfVni: t.vrfVni, vnetId: t.vnet, vnetTag: t.vnetVniBase, subnet: t.subnet, gateway: t.gateway }),
};
