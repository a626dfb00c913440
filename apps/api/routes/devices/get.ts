import { Device, DeviceParam } from '../../schemas/device.js';
import { getRoute } from '../shapes.js';
import { deviceAccess } from './access.js';

export const { route, register } = getRoute({
  path: '/v1/tenants/{t}/devices/{device}',
  tag: 'devices',
  summary: 'One registered device',
  params: DeviceParam,
  answer: ['the device', Device],
  missing: 'device not found',
  read: async (c, deps, { t, device }) => (await deviceAccess(c, deps, t, 'registry')).ops.getDevice(t, device),
});
