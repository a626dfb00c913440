import { WifiKey } from '../../schemas/wifi-key.js';
import { wifiKeys } from './resource.js';

export const { route, register } = wifiKeys.get({
  summary: 'One Wi-Fi key, without its psk, with `secrets_stored`',
  answer: ['the key', WifiKey],
  missing: 'wifi key not found',
  read: ({ ops }, { t, key }) => ops.getWifiKey(t, key),
});
