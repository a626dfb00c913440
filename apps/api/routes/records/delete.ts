import { settle } from '../../errors.js';
import { RecordParam } from '../../schemas/record.js';
import { deleteRoute } from '../shapes.js';
import { recordAccess } from './access.js';

export const { route, register } = deleteRoute({
  path: '/v1/tenants/{t}/records/{record}',
  tag: 'records',
  summary: 'Remove a name the tenant added (and its PTR)',
  params: RecordParam,
  done: 'removed',
  errors: [400, 401, 404, 409, 501, 502, 503],
  remove: async (c, deps, { t, record }) => {
    const { ops, actor } = await recordAccess(c, deps, t);
    settle(await ops.delete({ tenant: t, name: record, actor }));
  },
});
