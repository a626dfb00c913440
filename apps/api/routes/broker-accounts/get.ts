import { BrokerAccount, BrokerAccountParams } from '../../schemas/broker-account.js';
import { getRoute } from '../shapes.js';
import { brokerAccess } from './access.js';

export const { route, register } = getRoute({
  path: '/v1/tenants/{t}/broker-accounts/{account}',
  tag: 'broker accounts',
  summary: 'One broker account, without password',
  params: BrokerAccountParams,
  answer: ['the account', BrokerAccount],
  missing: 'broker account not found',
  read: async (c, deps, { t, account }) => (await brokerAccess(c, deps, t)).get(t, account),
});
