import { ensureTenantDeviceAddresses, planTenantDeviceAddresses, removeTenantDeviceAddresses } from './addresses.js';
import { untagged } from '../step-failure.js';
import type { StepModule } from '../tenant-step-module.js';

/**
 * `device-address`: every fixed address the tenant holds, on the router and as its name (a
 * reservation lost on the router comes back); only for a tenant that holds any.
 */
export const deviceAddressStep: StepModule<'device-address'> = {
  name: 'device-address',
  appliesTo: (_site, facts) => facts.holdsDeviceAddresses,
  // The reservation code tags its parts (dhcp, dns) for the address routes; here they are this step's.
  ensure: ({ deps, tenant: t }) => untagged(() => ensureTenantDeviceAddresses(deps, t.name, t.index)),
  plan: ({ deps, tenant: t }) => planTenantDeviceAddresses(deps, t.name, t.index),
  remove: ({ deps, tenant: t }) => untagged(() => removeTenantDeviceAddresses(deps, t.name, t.index)),
};
