import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { fromRefusal, stepFailed } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { WifiKeyParam } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';

export const route = createRoute({
  method: 'delete',
  path: '/v1/tenants/{t}/wifi-keys/{key}',
  tags: ['wifi-keys'],
  summary: 'Revoke a Wi-Fi key: every device holding it stops associating',
  description: "Revoking a WLAN's last key leaves one unusable placeholder entry, because the controller refuses an empty list.",
  security: [{ bearer: [] }],
  request: { params: WifiKeyParam },
  responses: {
    204: { description: 'revoked' },
    ...errorResponses(400, 401, 404, 409, 501, 502, 503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, key } = c.req.valid('param');
    const { ops, actor } = await deviceAccess(c, deps, t, 'wifi');
    const result = await ops.revokeWifiKey({ tenant: t, name: key, actor });
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw stepFailed(result.step, {});
    return c.body(null, 204);
  });
}
