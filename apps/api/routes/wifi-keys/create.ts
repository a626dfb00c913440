import { createRoute } from '@hono/zod-openapi';
import { settle } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { WifiKey, WifiKeyFailure, WifiKeyRequest } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';
import { idempotent } from '../../idempotency/contract.js';
import { answer, bearer, handle, jsonBody } from '../kit.js';

export const route = createRoute(idempotent({
  method: 'post', path: '/v1/tenants/{t}/wifi-keys', tags: ['wifi-keys'], ...bearer,
  summary: 'Issue a Wi-Fi key (the service chooses the psk; issuing again keeps it)',
  description:
    'SSID and VLAN come from the trust class. `psk` only restores a key the tenant holds after the service lost its ' +
    'copy; the wireless controller is then made to match. The trust class of a key cannot change.',
  request: { params: TenantParam, body: jsonBody(WifiKeyRequest) },
  responses: {
    201: answer('the key with its psk', WifiKey),
    ...errorResponses(400, 401, 404, 409, 413, 501),
    502: answer('the controller write did not land; the key with the same psk, repeating the call resumes', WifiKeyFailure),
    ...errorResponses(503),
  },
}));

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const body = c.req.valid('json');
  const { ops, actor } = await deviceAccess(c, deps, t, 'wifi');
  const result = settle(await ops.issueWifiKey({ tenant: t, name: body.name, trustClass: body.trust_class, ...(body.psk !== undefined ? { psk: body.psk } : {}), actor }), (failed) => (failed.key ? { wifi_key: failed.key } : {}));
  return c.json(result.key, 201);
});
