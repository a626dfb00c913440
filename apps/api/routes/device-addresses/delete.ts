import { createRoute } from '@hono/zod-openapi';
import { settle } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { DeviceAddressFailure } from '../../schemas/device-address.js';
import { DeviceParam } from '../../schemas/device.js';
import { deviceAccess } from '../devices/access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'delete', path: '/v1/tenants/{t}/devices/{device}/address', tags: ['devices'], ...bearer,
  summary: "Release a device's fixed address (the device is not disconnected; it leases from the pool at next renewal)",
  request: { params: DeviceParam },
  responses: {
    204: { description: 'released: the reservation and `<device>.<zone>` are gone' },
    ...errorResponses(400, 401, 404, 409, 501),
    502: answer('the router or DNS write did not land; repeat the call', DeviceAddressFailure),
    ...errorResponses(503),
  },
});

export const register = handle(route, async (c, deps) => {
  const { t, device } = c.req.valid('param');
  const { ops, actor } = await deviceAccess(c, deps, t, 'dhcp');
  settle(await ops.releaseAddress({ tenant: t, device, actor }), (failed) => (failed.reservation ? { address: failed.reservation } : {}));
  return c.body(null, 204);
});
