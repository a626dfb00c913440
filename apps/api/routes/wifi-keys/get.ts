import { createRoute } from '@hono/zod-openapi';
import { found } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { WifiKey, WifiKeyParam } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/wifi-keys/{key}', tags: ['wifi-keys'], ...bearer,
  summary: 'One Wi-Fi key, without its psk, with `secrets_stored`',
  request: { params: WifiKeyParam },
  responses: { 200: answer('the key', WifiKey), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, key } = c.req.valid('param');
  const { ops } = await deviceAccess(c, deps, t, 'wifi');
  return c.json(found(await ops.getWifiKey(t, key), 'wifi key not found'), 200);
});
