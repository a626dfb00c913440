import { badRequest, notFound } from '../../errors.js';
import { DeviceParam } from '../../schemas/device.js';
import { deleteRoute } from '../shapes.js';
import { deviceAccess } from './access.js';

export const { route, register } = deleteRoute({
  path: '/v1/tenants/{t}/devices/{device}',
  tag: 'devices',
  summary: 'Remove a device from the registry (it keeps its flashed Wi-Fi key)',
  params: DeviceParam,
  done: 'removed',
  errors: [400, 401, 404, 501, 503],
  remove: async (c, deps, { t, device }) => {
    const { ops, actor } = await deviceAccess(c, deps, t, 'registry');
    const outcome = await ops.deleteDevice({ tenant: t, name: device, actor });
    if (outcome === 'not-found') throw notFound('device not found');
    if (outcome === 'holds-address') throw badRequest('the device still holds a fixed address; release it first');
  },
});
