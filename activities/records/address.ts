import { ipv4Octets } from '../../backends/powerdns/names.js';

/**
 * What a record may point at (spec: Record): a host address of the tenant's own /24, which is
 * published with its PTR, or an address the tenant reserved for one of its devices, which gets a
 * second name and no PTR (its reverse zone is not the tenant's). Anything else is refused.
 */
export type RecordTarget = { ok: true; kind: 'subnet' | 'device' } | { ok: false; error: string };

export function classifyRecordAddress(subnet: string, address: string, deviceAddresses: readonly string[]): RecordTarget {
  let octets: [number, number, number, number];
  try {
    octets = ipv4Octets(address);
  } catch {
    return { ok: false, error: `address must be an IPv4 address like 10.128.1.20` };
  }
  if (deviceAddresses.includes(address)) return { ok: true, kind: 'device' };
  const [net] = subnet.split('/') as [string];
  const prefix = net.split('.').slice(0, 3).join('.');
  if (octets.slice(0, 3).join('.') === prefix) {
    if (octets[3] === 0 || octets[3] === 255) return { ok: false, error: `address ${address} is not a host address of the tenant's subnet ${subnet}` };
    return { ok: true, kind: 'subnet' };
  }
  return { ok: false, error: `address ${address} is neither in the tenant's subnet ${subnet} nor reserved for one of its devices` };
}
