import { requireTenantAccess } from '../../auth/authorize.js';
import { actorOf } from '../../auth/caller.js';
import { settle } from '../../errors.js';
import { TenantParam } from '../../schemas/common.js';
import { deleteRoute } from '../shapes.js';

export const { route, register } = deleteRoute({
  path: '/v1/tenants/{t}',
  tag: 'tenants',
  summary: 'Delete a tenant and its backend objects (not its fabric network)',
  params: TenantParam,
  done: 'deleted',
  errors: [400, 401, 404, 409, 501, 502, 503],
  remove: async (c, deps, { t }) => {
    requireTenantAccess(c, t);
    // The worker writes the audit entry as it removes the row (docs/decisions.md, "One audit place").
    settle(await deps.operations!.delete(t, actorOf(c.var.caller)));
  },
});
