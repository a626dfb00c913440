import { settle } from '../../errors.js';
import { DeviceAddressFailure } from '../../schemas/device-address.js';
import { DeviceParam } from '../../schemas/device.js';
import { deviceAccess } from '../devices/access.js';
import { deleteRoute } from '../shapes.js';

export const { route, register } = deleteRoute({
  path: '/v1/tenants/{t}/devices/{device}/address',
  tag: 'devices',
  summary: "Release a device's fixed address (the device is not disconnected; it leases from the pool at next renewal)",
  params: DeviceParam,
  done: 'released: the reservation and `<device>.<zone>` are gone',
  errors: [400, 401, 404, 409, 501, 503],
  failure: ['the router or DNS write did not land; repeat the call', DeviceAddressFailure],
  remove: async (c, deps, { t, device }) => {
    const { ops, actor } = await deviceAccess(c, deps, t, 'dhcp');
    settle(await ops.releaseAddress({ tenant: t, device, actor }), (failed) => (failed.reservation ? { address: failed.reservation } : {}));
  },
});
