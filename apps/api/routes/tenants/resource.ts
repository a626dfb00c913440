import { requireTenantAccess } from '../../auth/authorize.js';
import { actorOf } from '../../auth/caller.js';
import { TenantParam } from '../../schemas/common.js';
import { resource } from '../shapes.js';

/** A tenant itself: the operator or the tenant; whether it is registered is the read's or the run's to say. */
export const tenants = resource({
  tag: 'tenants',
  item: '/v1/tenants/{t}',
  params: TenantParam,
  access: async (c, deps, t) => {
    const caller = requireTenantAccess(c, t);
    return { ops: deps.operations!, actor: actorOf(caller) };
  },
});
