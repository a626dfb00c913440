import { WifiKey, WifiKeyParam } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';
import { getRoute } from '../shapes.js';

export const { route, register } = getRoute({
  path: '/v1/tenants/{t}/wifi-keys/{key}',
  tag: 'wifi-keys',
  summary: 'One Wi-Fi key, without its psk, with `secrets_stored`',
  params: WifiKeyParam,
  answer: ['the key', WifiKey],
  missing: 'wifi key not found',
  read: async (c, deps, { t, key }) => (await deviceAccess(c, deps, t, 'wifi')).ops.getWifiKey(t, key),
});
