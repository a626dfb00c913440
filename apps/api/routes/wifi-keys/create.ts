import { settle } from '../../errors.js';
import { TenantParam } from '../../schemas/common.js';
import { WifiKey, WifiKeyFailure, WifiKeyRequest } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';
import { writeRoute } from '../shapes.js';

export const { route, register } = writeRoute({
  method: 'post',
  path: '/v1/tenants/{t}/wifi-keys',
  tag: 'wifi-keys',
  summary: 'Issue a Wi-Fi key (the service chooses the psk; issuing again keeps it)',
  description:
    'SSID and VLAN come from the trust class. `psk` only restores a key the tenant holds after the service lost its ' +
    'copy; the wireless controller is then made to match. The trust class of a key cannot change.',
  params: TenantParam,
  body: WifiKeyRequest,
  answers: { 201: ['the key with its psk', WifiKey] },
  errors: [400, 401, 404, 409, 413, 501, 503],
  failed: ['the controller write did not land; the key with the same psk, repeating the call resumes', WifiKeyFailure],
  write: async (c, deps, { t }, body) => {
    const { ops, actor } = await deviceAccess(c, deps, t, 'wifi');
    const issued = await ops.issueWifiKey({
      tenant: t,
      name: body.name,
      trustClass: body.trust_class,
      ...(body.psk !== undefined ? { psk: body.psk } : {}),
      actor,
    });
    return [201, settle(issued, (failed) => (failed.key ? { wifi_key: failed.key } : {})).key] as const;
  },
});
