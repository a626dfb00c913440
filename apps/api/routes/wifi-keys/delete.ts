import { createRoute } from '@hono/zod-openapi';
import { settle } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { WifiKeyParam } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';
import { bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'delete', path: '/v1/tenants/{t}/wifi-keys/{key}', tags: ['wifi-keys'], ...bearer,
  summary: 'Revoke a Wi-Fi key: every device holding it stops associating',
  description: "Revoking a WLAN's last key leaves one unusable placeholder entry, because the controller refuses an empty list.",
  request: { params: WifiKeyParam },
  responses: { 204: { description: 'revoked' }, ...errorResponses(400, 401, 404, 409, 501, 502, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, key } = c.req.valid('param');
  const { ops, actor } = await deviceAccess(c, deps, t, 'wifi');
  settle(await ops.revokeWifiKey({ tenant: t, name: key, actor }));
  return c.body(null, 204);
});
