import { RecordList } from '../../schemas/record.js';
import { listRoute } from '../shapes.js';
import { recordAccess } from './access.js';

export const { route, register } = listRoute({
  path: '/v1/tenants/{t}/records',
  tag: 'records',
  summary: 'The names the tenant added, by name',
  answer: ['records', RecordList],
  list: async (c, deps, t) => ({ records: await (await recordAccess(c, deps, t)).ops.list(t) }),
});
