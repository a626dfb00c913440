import { BrokerAccountList } from '../../schemas/broker-account.js';
import { listRoute } from '../shapes.js';
import { brokerAccess } from './access.js';

export const { route, register } = listRoute({
  path: '/v1/tenants/{t}/broker-accounts',
  tag: 'broker accounts',
  summary: "The tenant's broker accounts, by name, never a password",
  answer: ['broker accounts', BrokerAccountList],
  list: async (c, deps, t) => ({ broker_accounts: await (await brokerAccess(c, deps, t)).list(t) }),
});
