import { settle } from '../../errors.js';
import { WifiKey, WifiKeyFailure, WifiKeyRequest } from '../../schemas/wifi-key.js';
import { wifiKeys } from './resource.js';

export const { route, register } = wifiKeys.create({
  summary: 'Issue a Wi-Fi key (the service chooses the psk; issuing again keeps it)',
  description:
    'SSID and VLAN come from the trust class. `psk` only restores a key the tenant holds after the service lost its ' +
    'copy; the wireless controller is then made to match. The trust class of a key cannot change.',
  body: WifiKeyRequest,
  answers: { 201: ['the key with its psk', WifiKey] },
  errors: [400, 401, 404, 409, 413, 501, 503],
  failed: ['the controller write did not land; the key with the same psk, repeating the call resumes', WifiKeyFailure],
  write: async ({ ops, actor }, { t }, body) => {
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
