import { DeviceList } from '../../schemas/device.js';
import { listRoute } from '../shapes.js';
import { deviceAccess } from './access.js';

export const { route, register } = listRoute({
  path: '/v1/tenants/{t}/devices',
  tag: 'devices',
  summary: "The tenant's registered devices, by name",
  answer: ['devices', DeviceList],
  list: async (c, deps, t) => ({ devices: await (await deviceAccess(c, deps, t, 'registry')).ops.listDevices(t) }),
});
