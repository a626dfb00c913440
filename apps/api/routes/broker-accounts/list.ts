import { BrokerAccountList } from '../../schemas/broker-account.js';
import { brokerAccounts } from './resource.js';

export const { route, register } = brokerAccounts.list({
  summary: "The tenant's broker accounts, by name, never a password",
  answer: ['broker accounts', BrokerAccountList],
  list: async ({ ops }, t) => ({ broker_accounts: await ops.list(t) }),
});
