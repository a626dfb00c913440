import { auditTenantDelete } from '../../../../db/queries/audit.js';
import { afterRun } from '../../after-run.js';
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
    // Read first: the audit entry names the zones the delete removes, and the row goes with them.
    const before = await deps.operations!.get(t);
    settle(await deps.operations!.delete(t));
    if (!before) return;
    const entry = { actor: actorOf(c.var.caller), tenant: t, zones: before.dns };
    await afterRun(c.var.log, { audit: entry }, () => auditTenantDelete(deps.registry.db, entry));
  },
});
