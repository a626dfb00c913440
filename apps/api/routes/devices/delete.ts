import { badRequest, notFound } from '../../errors.js';
import { devices } from './resource.js';

export const { route, register } = devices.delete({
  summary: 'Remove a device from the registry (it keeps its flashed Wi-Fi key)',
  done: 'removed',
  errors: [400, 401, 404, 501, 503],
  remove: async ({ ops, actor }, { t, device }) => {
    const outcome = await ops.deleteDevice({ tenant: t, name: device, actor });
    if (outcome === 'not-found') throw notFound('device not found');
    if (outcome === 'holds-address') throw badRequest('the device still holds a fixed address; release it first');
  },
});
