import { RecordParam } from '../../schemas/record.js';
import { resource } from '../shapes.js';
import { tenantAccess } from '../tenant-access.js';

/** The caller may manage the tenant's records (operator or the tenant itself) and the tenant is registered. */
export const records = resource({
  tag: 'records',
  item: '/v1/tenants/{t}/records/{record}',
  params: RecordParam,
  access: (c, deps, t) => tenantAccess(c, t, deps.records, 'no site configured'),
});
