import { WifiKeyParam } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/resource.js';
import { resource } from '../shapes.js';

/** A tenant's Wi-Fi keys: their routes need the wireless controller. */
export const wifiKeys = resource({
  tag: 'wifi-keys',
  item: '/v1/tenants/{t}/wifi-keys/{key}',
  params: WifiKeyParam,
  access: (c, deps, t) => deviceAccess(c, deps, t, 'wifi'),
});
