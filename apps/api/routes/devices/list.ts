import { createRoute } from '@hono/zod-openapi';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { DeviceList } from '../../schemas/device.js';
import { deviceAccess } from './access.js';
import { answer, bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'get', path: '/v1/tenants/{t}/devices', tags: ['devices'], ...bearer,
  summary: "The tenant's registered devices, by name",
  request: { params: TenantParam },
  responses: { 200: answer('devices', DeviceList), ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const { ops } = await deviceAccess(c, deps, t, 'registry');
  return c.json({ devices: await ops.listDevices(t) }, 200);
});
