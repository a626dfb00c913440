import { settle } from '../../errors.js';
import { records } from './resource.js';

export const { route, register } = records.delete({
  summary: 'Remove a name the tenant added (and its PTR)',
  done: 'removed',
  errors: [400, 401, 404, 409, 501, 502, 503],
  remove: async ({ ops, actor }, { t, record }) => void settle(await ops.delete({ tenant: t, name: record, actor })),
});
