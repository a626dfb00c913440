import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { DeviceList } from '../../schemas/device.js';
import { deviceAccess } from './access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/devices',
  tags: ['devices'],
  summary: "The tenant's registered devices, by name",
  security: [{ bearer: [] }],
  request: { params: TenantParam },
  responses: {
    200: { description: 'devices', content: { 'application/json': { schema: DeviceList } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    const { ops } = await deviceAccess(c, deps, t, 'registry');
    return c.json({ devices: await ops.listDevices(t) }, 200);
  });
}
