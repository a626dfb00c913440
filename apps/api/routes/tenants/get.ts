import { Tenant } from '../../schemas/tenant.js';
import { tenants } from './resource.js';

export const { route, register } = tenants.get({
  summary: 'One tenant, without secrets',
  answer: ['the tenant', Tenant],
  missing: 'tenant not found',
  read: ({ ops }, { t }) => ops.get(t),
});
