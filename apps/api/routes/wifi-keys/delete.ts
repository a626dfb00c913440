import { settle } from '../../errors.js';
import { wifiKeys } from './resource.js';

export const { route, register } = wifiKeys.delete({
  summary: 'Revoke a Wi-Fi key: every device holding it stops associating',
  description: "Revoking a WLAN's last key leaves one unusable placeholder entry, because the controller refuses an empty list.",
  done: 'revoked',
  errors: [400, 401, 404, 409, 501, 502, 503],
  remove: async ({ ops, actor }, { t, key }) => void settle(await ops.revokeWifiKey({ tenant: t, name: key, actor })),
});
