import { removeTenantBrokerAccounts } from './remove-all.js';
import type { TenantStep } from '../tenant-step-module.js';

/** `broker` (delete only): every broker account of the tenant; accounts are made by their own route. */
export const brokerStep: TenantStep<'broker'> = {
  name: 'broker',
  create: null,
  removal: 1,
  appliesTo: (site) => site.broker !== undefined,
  remove: ({ deps, tenant: t }) => removeTenantBrokerAccounts(deps, t.name),
};
