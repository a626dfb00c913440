import { settle } from '../../errors.js';
import { DeviceAddressFailure } from '../../schemas/device-address.js';
import { deviceAddresses } from './resource.js';

export const { route, register } = deviceAddresses.delete({
  summary: "Release a device's fixed address (the device is not disconnected; it leases from the pool at next renewal)",
  done: 'released: the reservation and `<device>.<zone>` are gone',
  errors: [400, 401, 404, 409, 501, 503],
  failure: ['the router or DNS write did not land; repeat the call', DeviceAddressFailure],
  remove: async ({ ops, actor }, { t, device }) => {
    settle(await ops.releaseAddress({ tenant: t, device, actor }), (failed) => (failed.reservation ? { address: failed.reservation } : {}));
  },
});
