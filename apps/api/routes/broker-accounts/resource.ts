import { BrokerAccountParams } from '../../schemas/broker-account.js';
import { resource } from '../shapes.js';
import { tenantAccess } from '../tenant-access.js';

/** Every broker account route: the caller's own tenant (or the operator), a broker, a registered tenant. */
export const brokerAccounts = resource({
  tag: 'broker accounts',
  item: '/v1/tenants/{t}/broker-accounts/{account}',
  params: BrokerAccountParams,
  access: (c, deps, t) => tenantAccess(c, t, deps.config.site?.broker ? deps.brokerAccounts : undefined, 'no broker at this site'),
});
