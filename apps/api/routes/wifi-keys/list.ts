import { createRoute } from '@hono/zod-openapi';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { WifiKeyList } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/wifi-keys', tags: ['wifi-keys'], ...bearer,
  summary: "The tenant's Wi-Fi keys, by name, never with a psk",
  request: { params: TenantParam },
  responses: { 200: answer('keys', WifiKeyList), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const { ops } = await deviceAccess(c, deps, t, 'wifi');
  return c.json({ wifi_keys: await ops.listWifiKeys(t) }, 200);
});
