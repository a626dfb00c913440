import { settle } from '../../errors.js';
import { DeviceAddress, DeviceAddressFailure, DeviceAddressRequest } from '../../schemas/device-address.js';
import { deviceAddresses } from './resource.js';

export const { route, register } = deviceAddresses.write({
  method: 'post',
  summary: 'Reserve a fixed address for a device: DHCP reservation for its MAC and `<device>.<zone>` (no PTR)',
  description:
    "An empty body takes the lowest free address of the range of the device's trust class. Calling again converges " +
    'and never moves a device. 400: the device is unregistered or has no MAC, the address is outside the tenant range, ' +
    "the trust class has no range here, the device's name is a workload's or a record's, or a different address is " +
    'held. 409: the MAC already holds an address on the device network, the address is taken, the range is full, or ' +
    'the tenant holds its full share.',
  body: DeviceAddressRequest,
  bodyOptional: true,
  answers: { 201: ['the reservation', DeviceAddress] },
  errors: [400, 401, 404, 409, 413, 501, 503],
  failed: ['the router or DNS write did not land; the same call resumes', DeviceAddressFailure],
  write: async ({ ops, actor }, { t, device }, body) => {
    const reserved = await ops.reserveAddress({ tenant: t, device, ...(body.address !== undefined ? { address: body.address } : {}), actor });
    return [201, settle(reserved, (failed) => (failed.reservation ? { address: failed.reservation } : {})).reservation] as const;
  },
});
