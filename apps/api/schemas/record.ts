import { z } from '@hono/zod-openapi';
import { DNS_LABEL } from '../../../activities/workloads/names.js';
import { DateTime, TenantName } from './common.js';

export const RecordLabel = z.string().regex(DNS_LABEL, 'must be a DNS label: 1-63 lowercase letters, digits or dashes, not starting or ending with a dash').openapi({ example: 'www' });

export const RecordParam = z.object({
  t: TenantName.openapi({ param: { name: 't', in: 'path' } }),
  record: RecordLabel.openapi({ param: { name: 'record', in: 'path' } }),
});

export const RecordPutRequest = z
  .strictObject({
    address: z.ipv4().openapi({ format: 'ipv4', description: "an IPv4 address of the tenant's subnet, or one it reserved for a device" }),
  })
  .openapi('RecordPutRequest');

export const Record = z
  .object({
    tenant: TenantName,
    name: RecordLabel,
    fqdn: z.string(),
    address: z.string(),
    kind: z.enum(['subnet', 'device']).openapi({ description: "`subnet`: published with its PTR; `device`: a device's reserved address, a second name with no PTR" }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi('Record');

export const RecordList = z.object({ records: z.array(Record) }).openapi('RecordList');
