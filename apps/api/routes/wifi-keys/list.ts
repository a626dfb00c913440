import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { WifiKeyList } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/wifi-keys',
  tags: ['wifi-keys'],
  summary: "The tenant's Wi-Fi keys, by name, never with a psk",
  security: [{ bearer: [] }],
  request: { params: TenantParam },
  responses: {
    200: { description: 'keys', content: { 'application/json': { schema: WifiKeyList } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    const { ops } = await deviceAccess(c, deps, t, 'wifi');
    return c.json({ wifi_keys: await ops.listWifiKeys(t) }, 200);
  });
}
