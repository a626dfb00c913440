import { createRoute } from '@hono/zod-openapi';
import { found } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { Device, DeviceParam } from '../../schemas/device.js';
import { answer, bearer, handle } from '../kit.js';
import { deviceAccess } from './access.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/devices/{device}', tags: ['devices'], summary: 'One registered device', ...bearer,
  request: { params: DeviceParam },
  responses: { 200: answer('the device', Device), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, device } = c.req.valid('param');
  const { ops } = await deviceAccess(c, deps, t, 'registry');
  return c.json(found(await ops.getDevice(t, device), 'device not found'), 200);
});
