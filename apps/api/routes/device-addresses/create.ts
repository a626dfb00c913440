import { createRoute } from '@hono/zod-openapi';
import { settle } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { DeviceAddress, DeviceAddressFailure, DeviceAddressRequest } from '../../schemas/device-address.js';
import { DeviceParam } from '../../schemas/device.js';
import { deviceAccess } from '../devices/access.js';
import { idempotent } from '../../idempotency/contract.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute(idempotent({
  method: 'post', path: '/v1/tenants/{t}/devices/{device}/address', tags: ['devices'], ...bearer,
  summary: 'Reserve a fixed address for a device: DHCP reservation for its MAC and `<device>.<zone>` (no PTR)',
  description:
    "An empty body takes the lowest free address of the range of the device's trust class. Calling again converges " +
    'and never moves a device. 400: the device is unregistered or has no MAC, the address is outside the tenant range, ' +
    "the trust class has no range here, the device's name is a workload's or a record's, or a different address is " +
    'held. 409: the MAC already holds an address on the device network, the address is taken, the range is full, or ' +
    'the tenant holds its full share.',
  request: { params: DeviceParam, body: { required: false, content: { 'application/json': { schema: DeviceAddressRequest } } } },
  responses: {
    201: answer('the reservation', DeviceAddress),
    ...errorResponses(400, 401, 404, 409, 413, 501),
    502: answer('the router or DNS write did not land; the same call resumes', DeviceAddressFailure),
    ...errorResponses(503),
  },
}));

export const register = handle(route, async (c, deps) => {
  const { t, device } = c.req.valid('param');
  const body = c.req.valid('json');
  const { ops, actor } = await deviceAccess(c, deps, t, 'dhcp');
  const result = settle(await ops.reserveAddress({ tenant: t, device, ...(body.address !== undefined ? { address: body.address } : {}), actor }), (failed) => (failed.reservation ? { address: failed.reservation } : {}));
  return c.json(result.reservation, 201);
});
