import { settle } from '../../errors.js';
import { brokerAccounts } from './resource.js';

export const { route, register } = brokerAccounts.delete({
  summary: 'Delete a broker account: its open connections are cut and its next one refused',
  done: 'deleted',
  errors: [400, 401, 404, 409, 501, 502, 503],
  remove: async ({ ops }, { t, account }) => void settle(await ops.delete(t, account)),
});
