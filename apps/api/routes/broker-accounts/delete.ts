import { settle } from '../../errors.js';
import { BrokerAccountParams } from '../../schemas/broker-account.js';
import { deleteRoute } from '../shapes.js';
import { brokerAccess } from './access.js';

export const { route, register } = deleteRoute({
  path: '/v1/tenants/{t}/broker-accounts/{account}',
  tag: 'broker accounts',
  summary: 'Delete a broker account: its open connections are cut and its next one refused',
  params: BrokerAccountParams,
  done: 'deleted',
  errors: [400, 401, 404, 409, 501, 502, 503],
  remove: async (c, deps, { t, account }) => void settle(await (await brokerAccess(c, deps, t)).delete(t, account)),
});
