import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { notFound } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { Device, DeviceParam } from '../../schemas/device.js';
import { deviceAccess } from './access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/devices/{device}',
  tags: ['devices'],
  summary: 'One registered device',
  security: [{ bearer: [] }],
  request: { params: DeviceParam },
  responses: {
    200: { description: 'the device', content: { 'application/json': { schema: Device } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, device } = c.req.valid('param');
    const { ops } = await deviceAccess(c, deps, t, 'registry');
    const found = await ops.getDevice(t, device);
    if (!found) throw notFound('device not found');
    return c.json(found, 200);
  });
}
