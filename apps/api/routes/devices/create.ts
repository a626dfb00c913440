import { createRoute } from '@hono/zod-openapi';
import { normalizeMac } from '../../../../activities/wifi/mac.js';
import { settle } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { Device, DeviceFailure, DeviceRequest } from '../../schemas/device.js';
import { deviceAccess } from './access.js';
import { idempotent } from '../../idempotency/contract.js';
import { answer, bearer, handle, jsonBody } from '../kit.js';

export const route = createRoute(idempotent({
  method: 'post', path: '/v1/tenants/{t}/devices', tags: ['devices'], ...bearer,
  summary: 'Register a device, or converge its entry (only the MAC can change)',
  description:
    'An entry is identity, not authorization: it grants, reserves and names nothing. Registering again converges; ' +
    'a new MAC takes over the fixed address the device holds. The trust class cannot change, and the MAC cannot be ' +
    'cleared while the device holds a fixed address.',
  request: { params: TenantParam, body: jsonBody(DeviceRequest) },
  responses: {
    201: answer('the device', Device),
    ...errorResponses(400, 401, 404, 409, 413, 501),
    502: answer("the device's fixed address did not move to its new MAC on the router; repeat the call", DeviceFailure),
    ...errorResponses(503),
  },
}));

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const body = c.req.valid('json');
  const { ops, actor } = await deviceAccess(c, deps, t, 'registry');
  const mac = body.mac === undefined || body.mac === null ? null : normalizeMac(body.mac)!;
  const result = settle(await ops.registerDevice({ tenant: t, name: body.name, trustClass: body.trust_class, mac, actor }), (failed) => ({ device: failed.device }));
  return c.json(result.device, 201);
});
