import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { DeviceParam } from '../../schemas/device.js';
import { deviceAccess } from './access.js';

export const route = createRoute({
  method: 'delete',
  path: '/v1/tenants/{t}/devices/{device}',
  tags: ['devices'],
  summary: 'Remove a device from the registry (it keeps its flashed Wi-Fi key)',
  security: [{ bearer: [] }],
  request: { params: DeviceParam },
  responses: {
    204: { description: 'removed' },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, device } = c.req.valid('param');
    const { ops, actor } = await deviceAccess(c, deps, t, 'registry');
    const outcome = await ops.deleteDevice({ tenant: t, name: device, actor });
    if (outcome === 'not-found') throw notFound('device not found');
    if (outcome === 'holds-address') throw badRequest('the device still holds a fixed address; release it first');
    return c.body(null, 204);
  });
}
