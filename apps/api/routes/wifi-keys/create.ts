import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { fromRefusal, stepFailed } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { WifiKey, WifiKeyFailure, WifiKeyRequest } from '../../schemas/wifi-key.js';
import { deviceAccess } from '../devices/access.js';
import { idempotent } from '../../idempotency/contract.js';

export const route = createRoute(idempotent({
  method: 'post',
  path: '/v1/tenants/{t}/wifi-keys',
  tags: ['wifi-keys'],
  summary: 'Issue a Wi-Fi key (the service chooses the psk; issuing again keeps it)',
  description:
    'SSID and VLAN come from the trust class. `psk` only restores a key the tenant holds after the service lost its ' +
    'copy; the wireless controller is then made to match. The trust class of a key cannot change.',
  security: [{ bearer: [] }],
  request: {
    params: TenantParam,
    body: { required: true, content: { 'application/json': { schema: WifiKeyRequest } } },
  },
  responses: {
    201: { description: 'the key with its psk', content: { 'application/json': { schema: WifiKey } } },
    ...errorResponses(400, 401, 404, 409, 413, 501),
    502: { description: 'the controller write did not land; the key with the same psk, repeating the call resumes', content: { 'application/json': { schema: WifiKeyFailure } } },
    ...errorResponses(503),
  },
}));

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    const body = c.req.valid('json');
    const { ops, actor } = await deviceAccess(c, deps, t, 'wifi');
    const result = await ops.issueWifiKey({ tenant: t, name: body.name, trustClass: body.trust_class, ...(body.psk !== undefined ? { psk: body.psk } : {}), actor });
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw stepFailed(result.step, result.key ? { wifi_key: result.key } : {});
    return c.json(result.key, 201);
  });
}
