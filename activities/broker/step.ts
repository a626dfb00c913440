import { removeTenantBrokerAccounts } from './remove-all.js';
import type { StepModule } from '../tenant-step-module.js';

/** `broker` (delete only): every broker account of the tenant; accounts are made by their own route. */
export const brokerStep: StepModule<'broker'> = {
  name: 'broker',
  appliesTo: (site) => site.broker !== undefined,
  remove: ({ deps, tenant: t }) => removeTenantBrokerAccounts(deps, t.name),
};
