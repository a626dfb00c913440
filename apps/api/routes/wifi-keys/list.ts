import { WifiKeyList } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';
import { listRoute } from '../shapes.js';

export const { route, register } = listRoute({
  path: '/v1/tenants/{t}/wifi-keys',
  tag: 'wifi-keys',
  summary: "The tenant's Wi-Fi keys, by name, never with a psk",
  answer: ['keys', WifiKeyList],
  list: async (c, deps, t) => ({ wifi_keys: await (await deviceAccess(c, deps, t, 'wifi')).ops.listWifiKeys(t) }),
});
