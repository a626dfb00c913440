import { Device } from '../../schemas/device.js';
import { devices } from './resource.js';

export const { route, register } = devices.get({
  summary: 'One registered device',
  answer: ['the device', Device],
  missing: 'device not found',
  read: ({ ops }, { t, device }) => ops.getDevice(t, device),
});
