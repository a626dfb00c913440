import { createRoute } from '@hono/zod-openapi';
import { badRequest, notFound } from '../../errors.js';
import { errorResponses } from '../../schemas/common.js';
import { DeviceParam } from '../../schemas/device.js';
import { deviceAccess } from './access.js';
import { bearer, handle } from '../kit.js';

export const route = createRoute({
  method: 'delete', path: '/v1/tenants/{t}/devices/{device}', tags: ['devices'], ...bearer,
  summary: 'Remove a device from the registry (it keeps its flashed Wi-Fi key)',
  request: { params: DeviceParam },
  responses: { 204: { description: 'removed' }, ...errorResponses(400, 401, 404, 501, 503) },
});

export const register = handle(route, async (c, deps) => {
  const { t, device } = c.req.valid('param');
  const { ops, actor } = await deviceAccess(c, deps, t, 'registry');
  const outcome = await ops.deleteDevice({ tenant: t, name: device, actor });
  if (outcome === 'not-found') throw notFound('device not found');
  if (outcome === 'holds-address') throw badRequest('the device still holds a fixed address; release it first');
  return c.body(null, 204);
});
