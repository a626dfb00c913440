import { WifiKeyList } from '../../schemas/wifi-key.js';
import { wifiKeys } from './resource.js';

export const { route, register } = wifiKeys.list({
  summary: "The tenant's Wi-Fi keys, by name, never with a psk",
  answer: ['keys', WifiKeyList],
  list: async ({ ops }, t) => ({ wifi_keys: await ops.listWifiKeys(t) }),
});
