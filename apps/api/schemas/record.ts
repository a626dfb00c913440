import { z } from '@hono/zod-openapi';
import { DNS_LABEL } from '../../../core/names/workload.js';
import { dnsLabel, listOf, objectParams, Stamps, TenantName, conditioned } from './common.js';

export const RecordLabel = dnsLabel(DNS_LABEL, 'must be a DNS label: 1-63 lowercase letters, digits or dashes, not starting or ending with a dash').openapi({
  example: 'www',
});

export const RecordParam = objectParams('record', RecordLabel);

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
    kind: z
      .enum(['subnet', 'device'])
      .openapi({ description: "`subnet`: published with its PTR; `device`: a device's reserved address, a second name with no PTR" }),
    ...Stamps,
    ...conditioned,
  })
  .openapi('Record');

export const RecordList = listOf('records', Record, 'RecordList');
