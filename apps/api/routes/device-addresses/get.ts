import { DeviceAddress } from '../../schemas/device-address.js';
import { deviceAddresses } from './resource.js';

export const { route, register } = deviceAddresses.get({
  summary: "A device's fixed address",
  answer: ['the reservation', DeviceAddress],
  missing: 'the device holds no fixed address',
  read: ({ ops }, { t, device }) => ops.getDeviceAddress(t, device),
});
