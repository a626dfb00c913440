import { settle } from '../../errors.js';
import { tenants } from './resource.js';

export const { route, register } = tenants.delete({
  summary: 'Delete a tenant and its backend objects (not its fabric network)',
  done: 'deleted',
  errors: [400, 401, 404, 409, 501, 502, 503],
  // The worker writes the audit entry as it removes the row (docs/decisions.md, "One audit place").
  remove: async ({ ops, actor }, { t }) => void settle(await ops.delete(t, actor)),
});
