import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { notFound } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { DeviceAddress } from '../../schemas/device-address.js';
import { DeviceParam } from '../../schemas/device.js';
import { deviceAccess } from '../devices/access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/devices/{device}/address',
  tags: ['devices'],
  summary: "A device's fixed address",
  security: [{ bearer: [] }],
  request: { params: DeviceParam },
  responses: {
    200: { description: 'the reservation', content: { 'application/json': { schema: DeviceAddress } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, device } = c.req.valid('param');
    const { ops } = await deviceAccess(c, deps, t, 'dhcp');
    const found = await ops.getDeviceAddress(t, device);
    if (!found) throw notFound('the device holds no fixed address');
    return c.json(found, 200);
  });
}
