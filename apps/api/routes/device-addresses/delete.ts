import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps, AppEnv } from '../../context.js';
import { fromRefusal, stepFailed } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { DeviceAddressFailure } from '../../schemas/device-address.js';
import { DeviceParam } from '../../schemas/device.js';
import { deviceAccess } from '../devices/access.js';

export const route = createRoute({
  method: 'delete',
  path: '/v1/tenants/{t}/devices/{device}/address',
  tags: ['devices'],
  summary: "Release a device's fixed address (the device is not disconnected; it leases from the pool at next renewal)",
  security: [{ bearer: [] }],
  request: { params: DeviceParam },
  responses: {
    204: { description: 'released: the reservation and `<device>.<zone>` are gone' },
    ...errorResponses(400, 401, 404, 409, 501),
    502: { description: 'the router or DNS write did not land; repeat the call', content: { 'application/json': { schema: DeviceAddressFailure } } },
    ...errorResponses(503),
  },
});

export function register(app: OpenAPIHono<AppEnv>, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const { t, device } = c.req.valid('param');
    const { ops, actor } = await deviceAccess(c, deps, t, 'dhcp');
    const result = await ops.releaseAddress({ tenant: t, device, actor });
    if (result.kind === 'refused') throw fromRefusal(result);
    if (result.kind === 'failed') throw stepFailed(result.step, result.reservation ? { address: result.reservation } : {});
    return c.body(null, 204);
  });
}
