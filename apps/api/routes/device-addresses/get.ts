import { DeviceParam } from '../../schemas/device.js';
import { DeviceAddress } from '../../schemas/device-address.js';
import { deviceAccess } from '../devices/access.js';
import { getRoute } from '../shapes.js';

export const { route, register } = getRoute({
  path: '/v1/tenants/{t}/devices/{device}/address',
  tag: 'devices',
  summary: "A device's fixed address",
  params: DeviceParam,
  answer: ['the reservation', DeviceAddress],
  missing: 'the device holds no fixed address',
  read: async (c, deps, { t, device }) => (await deviceAccess(c, deps, t, 'dhcp')).ops.getDeviceAddress(t, device),
});
