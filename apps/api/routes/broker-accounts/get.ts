import { BrokerAccount } from '../../schemas/broker-account.js';
import { brokerAccounts } from './resource.js';

export const { route, register } = brokerAccounts.get({
  summary: 'One broker account, without password',
  answer: ['the account', BrokerAccount],
  missing: 'broker account not found',
  read: ({ ops }, { t, account }) => ops.get(t, account),
});
