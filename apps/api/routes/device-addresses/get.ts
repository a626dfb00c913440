import { createRoute } from '@hono/zod-openapi';
import { found } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { DeviceAddress } from '../../schemas/device-address.js';
import { DeviceParam } from '../../schemas/device.js';
import { deviceAccess } from '../devices/access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/devices/{device}/address', tags: ['devices'], ...bearer,
  summary: "A device's fixed address",
  request: { params: DeviceParam },
  responses: { 200: answer('the reservation', DeviceAddress), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, device } = c.req.valid('param');
  const { ops } = await deviceAccess(c, deps, t, 'dhcp');
  return c.json(found(await ops.getDeviceAddress(t, device), 'the device holds no fixed address'), 200);
});
