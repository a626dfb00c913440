import { settle } from '../../errors.js';
import { WifiKeyParam } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';
import { deleteRoute } from '../shapes.js';

export const { route, register } = deleteRoute({
  path: '/v1/tenants/{t}/wifi-keys/{key}',
  tag: 'wifi-keys',
  summary: 'Revoke a Wi-Fi key: every device holding it stops associating',
  description: "Revoking a WLAN's last key leaves one unusable placeholder entry, because the controller refuses an empty list.",
  params: WifiKeyParam,
  done: 'revoked',
  errors: [400, 401, 404, 409, 501, 502, 503],
  remove: async (c, deps, { t, key }) => {
    const { ops, actor } = await deviceAccess(c, deps, t, 'wifi');
    settle(await ops.revokeWifiKey({ tenant: t, name: key, actor }));
  },
});
