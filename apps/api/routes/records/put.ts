import { createRoute } from '@hono/zod-openapi';
import { settle } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { Record, RecordParam, RecordPutRequest } from '../../schemas/record.js';
import { recordAccess } from './access.js';
import { idempotent } from '../../idempotency/contract.js';
import { answer, bearer, handle, jsonBody } from '../kit.js';

export const route = createRoute(idempotent({
  method: 'put', path: '/v1/tenants/{t}/records/{record}', tags: ['records'], ...bearer,
  summary: 'Publish `<record>.<zone>` for an address (an ensure)',
  description:
    "An address of the tenant's subnet is published with its PTR; an address the tenant reserved for one of its devices " +
    "gets a second name with no PTR. A workload's name, a device's published name, or a name the tenant published itself " +
    'with its update key is refused.',
  request: { params: RecordParam, body: jsonBody(RecordPutRequest) },
  responses: { 200: answer('the record', Record), ...errorResponses(400, 401, 404, 409, 413, 501, 502, 503) },
}));

export const register = handle(route, async (c, deps) => {
  const { t, record } = c.req.valid('param');
  const body = c.req.valid('json');
  const { ops, actor } = await recordAccess(c, deps, t);
  const result = settle(await ops.put({ tenant: t, name: record, address: body.address, actor }));
  return c.json(result.record, 200);
});
