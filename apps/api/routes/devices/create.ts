import { normalizeMac } from '../../../../core/names/mac.js';
import { settle } from '../../errors.js';
import { Device, DeviceFailure, DeviceRequest } from '../../schemas/device.js';
import { devices } from './resource.js';

export const { route, register } = devices.create({
  summary: 'Register a device, or converge its entry (only the MAC can change)',
  description:
    'An entry is identity, not authorization: it grants, reserves and names nothing. Registering again converges; ' +
    'a new MAC takes over the fixed address the device holds. The trust class cannot change, and the MAC cannot be ' +
    'cleared while the device holds a fixed address.',
  body: DeviceRequest,
  answers: { 201: ['the device', Device] },
  errors: [400, 401, 404, 409, 413, 501, 503],
  failed: ["the device's fixed address did not move to its new MAC on the router; repeat the call", DeviceFailure],
  write: async ({ ops, actor }, { t }, body) => {
    const mac = body.mac === undefined || body.mac === null ? null : normalizeMac(body.mac)!;
    const registered = await ops.registerDevice({ tenant: t, name: body.name, trustClass: body.trust_class, mac, actor });
    return [201, settle(registered, (failed) => ({ device: failed.device })).device] as const;
  },
});
