import { z } from '@hono/zod-openapi';
import { WORKLOAD_NAME } from '../../../core/names/workload.js';
import { Mac } from './admission.js';
import { dnsLabel, listOf, objectParams, Stamps, failureOf } from './common.js';

/** A device's name is published as `<device>.<zone>` when it holds an address: a label like a workload's. */
export const DeviceName = dnsLabel(WORKLOAD_NAME, 'must be a DNS label of 1-20 lowercase alphanumerics or dashes, not starting or ending with a dash').openapi({
  example: 'sensor-1',
});

export const TrustClass = z.string().min(1).max(64).openapi({ description: 'a class the site serves', example: 'sensor' });

export const DeviceParam = objectParams('device', DeviceName);

export const DeviceRequest = z
  .strictObject({
    name: DeviceName,
    trust_class: TrustClass,
    mac: Mac.nullable().optional().openapi({ description: 'absent or null: the device has none (refused while it holds a fixed address)' }),
  })
  .openapi('DeviceRequest');

export const Device = z
  .object({
    name: DeviceName,
    trust_class: z.string(),
    mac: z.string().optional().openapi({ description: 'lowercase colon-separated' }),
    ...Stamps,
  })
  .openapi('Device');

export const DeviceList = listOf('devices', Device, 'DeviceList');

export const DeviceFailure = failureOf('device', Device, 'the registered device; its address did not move on the router yet', 'DeviceFailure');
