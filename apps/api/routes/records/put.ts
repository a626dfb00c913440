import { settle } from '../../errors.js';
import { Record, RecordPutRequest } from '../../schemas/record.js';
import { records } from './resource.js';

export const { route, register } = records.write({
  method: 'put',
  summary: 'Publish `<record>.<zone>` for an address (an ensure)',
  description:
    "An address of the tenant's subnet is published with its PTR; an address the tenant reserved for one of its devices " +
    "gets a second name with no PTR. A workload's name, a device's published name, or a name the tenant published itself " +
    'with its update key is refused.',
  body: RecordPutRequest,
  answers: { 200: ['the record', Record] },
  errors: [400, 401, 404, 409, 413, 501, 502, 503],
  write: async ({ ops, actor }, { t, record }, body) => {
    return [200, settle(await ops.put({ tenant: t, name: record, address: body.address, actor })).record] as const;
  },
});
