import { DeviceParam } from '../../schemas/device.js';
import { deviceAccess } from '../devices/resource.js';
import { resource } from '../shapes.js';

/** A device's one fixed address, below the device (tagged with the devices): its routes need the DHCP server. */
export const deviceAddresses = resource({
  tag: 'devices',
  item: '/v1/tenants/{t}/devices/{device}/address',
  params: DeviceParam,
  access: (c, deps, t) => deviceAccess(c, deps, t, 'dhcp'),
});
