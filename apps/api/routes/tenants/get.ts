import { requireTenantAccess } from '../../auth/authorize.js';
import { TenantParam } from '../../schemas/common.js';
import { Tenant } from '../../schemas/tenant.js';
import { getRoute } from '../shapes.js';

export const { route, register } = getRoute({
  path: '/v1/tenants/{t}',
  tag: 'tenants',
  summary: 'One tenant, without secrets',
  params: TenantParam,
  answer: ['the tenant', Tenant],
  missing: 'tenant not found',
  read: (c, deps, { t }) => {
    requireTenantAccess(c, t);
    return deps.operations!.get(t);
  },
});
