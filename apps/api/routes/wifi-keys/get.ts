import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { notFound } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { WifiKey, WifiKeyParam } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';

export const route = createRoute({
  method: 'get',
  path: '/v1/tenants/{t}/wifi-keys/{key}',
  tags: ['wifi-keys'],
  summary: 'One Wi-Fi key, without its psk, with `secrets_stored`',
  security: [{ bearer: [] }],
  request: { params: WifiKeyParam },
  responses: {
    200: { description: 'the key', content: { 'application/json': { schema: WifiKey } } },
    ...errorResponses(400, 401, 404, 501, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, key } = c.req.valid('param');
    const { ops } = await deviceAccess(c, deps, t, 'wifi');
    const found = await ops.getWifiKey(t, key);
    if (!found) throw notFound('wifi key not found');
    return c.json(found, 200);
  });
}
