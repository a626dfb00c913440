import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { normalizeMac } from '../../../../activities/wifi/mac.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { fromRefusal, stepFailed } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { Device, DeviceFailure, DeviceRequest } from '../../schemas/device.js';
import { deviceAccess } from './access.js';
import { idempotent } from '../../idempotency/contract.js';

export const route = createRoute(idempotent({
  method: 'post',
  path: '/v1/tenants/{t}/devices',
  tags: ['devices'],
  summary: 'Register a device, or converge its entry (only the MAC can change)',
  description:
    'An entry is identity, not authorization: it grants, reserves and names nothing. Registering again converges; ' +
    'a new MAC takes over the fixed address the device holds. The trust class cannot change, and the MAC cannot be ' +
    'cleared while the device holds a fixed address.',
  security: [{ bearer: [] }],
  request: {
    params: TenantParam,
    body: { required: true, content: { 'application/json': { schema: DeviceRequest } } },
  },
  responses: {
    201: { description: 'the device', content: { 'application/json': { schema: Device } } },
    ...errorResponses(400, 401, 404, 409, 413, 501),
    502: { description: "the device's fixed address did not move to its new MAC on the router; repeat the call", content: { 'application/json': { schema: DeviceFailure } } },
    ...errorResponses(503),
  },
}));

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t } = c.req.valid('param');
    const body = c.req.valid('json');
    const { ops, actor } = await deviceAccess(c, deps, t, 'registry');
    const mac = body.mac === undefined || body.mac === null ? null : normalizeMac(body.mac)!;
    const result = await ops.registerDevice({ tenant: t, name: body.name, trustClass: body.trust_class, mac, actor });
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw stepFailed(result.step, { device: result.device });
    return c.json(result.device, 201);
  });
}
