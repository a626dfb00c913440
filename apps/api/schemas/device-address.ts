import { z } from '@hono/zod-openapi';
import { Stamps, conditioned, failureOf } from './common.js';

export const DeviceAddressRequest = z
  .strictObject({
    address: z.ipv4().optional().openapi({ format: 'ipv4', description: "an address in the range of the device's trust class; absent: the lowest free one" }),
  })
  .openapi('DeviceAddressRequest');

export const DeviceAddress = z
  .object({
    device: z.string(),
    address: z.string(),
    mac: z.string().openapi({ description: 'the MAC the DHCP server reserves the address for' }),
    trust_class: z.string(),
    fqdn: z.string().openapi({ description: '`<device>.<tenant zone>`, published with no PTR' }),
    ...Stamps,
    ...conditioned,
  })
  .openapi('DeviceAddress');

export const DeviceAddressFailure = failureOf('address', DeviceAddress, 'the reservation as far as it got; repeating the call resumes', 'DeviceAddressFailure');
