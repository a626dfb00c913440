import { DeviceList } from '../../schemas/device.js';
import { devices } from './resource.js';

export const { route, register } = devices.list({
  summary: "The tenant's registered devices, by name",
  answer: ['devices', DeviceList],
  list: async ({ ops }, t) => ({ devices: await ops.listDevices(t) }),
});
