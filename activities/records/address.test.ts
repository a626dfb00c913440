import { describe, expect, it } from 'vitest';
import { classifyRecordAddress } from './address.js';
import { isServicePtr, ptrAction, ptrOwner } from './ptr.js';

describe('what a record may point at', () => {
  const subnet = '10.128.5.0/24';
  const devices = ['10.200.0.70'];
  // The refusal of an address names it, and why it is not the tenant's.
  const OUTSIDE = "is neither in the tenant's subnet 10.128.5.0/24 nor reserved for one of its devices";
  const NOT_A_HOST = "is not a host address of the tenant's subnet 10.128.5.0/24";
  const refused = (reason: string, address: string, why: string) => ({ reason, address, want: { ok: false, error: `address ${address} ${why}` } });
  const rows = [
    { reason: 'a host of the subnet', address: '10.128.5.20', want: { ok: true, kind: 'subnet' } },
    { reason: 'the gateway is a host too', address: '10.128.5.1', want: { ok: true, kind: 'subnet' } },
    { reason: 'a device address of the tenant', address: '10.200.0.70', want: { ok: true, kind: 'device' } },
    refused('the network address', '10.128.5.0', NOT_A_HOST),
    refused('the broadcast address', '10.128.5.255', NOT_A_HOST),
    refused("another tenant's subnet", '10.128.6.20', OUTSIDE),
    refused('a device address of no device of the tenant', '10.200.0.71', OUTSIDE),
    { reason: 'not an address', address: '10.128.5', want: { ok: false, error: 'address must be an IPv4 address like 10.128.1.20' } },
  ];
  for (const row of rows) it(row.reason, () => expect(classifyRecordAddress(subnet, row.address, devices)).toEqual(row.want));
});

describe('who owns the PTR of an address', () => {
  const names = {
    workloads: [{ name: 'web', address: '10.128.5.10', createdAt: '2026-01-03T00:00:00Z' }],
    records: [
      { name: 'site', address: '10.128.5.10', createdAt: '2026-01-01T00:00:00Z' },
      { name: 'b', address: '10.128.5.30', createdAt: '2026-01-02T00:00:00Z' },
      { name: 'a', address: '10.128.5.30', createdAt: '2026-01-02T00:00:00Z' },
      { name: 'late', address: '10.128.5.30', createdAt: '2026-01-05T00:00:00Z' },
    ],
  };
  const rows = [
    { reason: "a workload's address names the workload, even with an older record", address: '10.128.5.10', excluding: undefined, want: 'web' },
    { reason: 'without the workload, the record', address: '10.128.5.10', excluding: { kind: 'workload' as const, name: 'web' }, want: 'site' },
    { reason: 'the earliest record; a tie goes by name', address: '10.128.5.30', excluding: undefined, want: 'a' },
    { reason: 'the next one when the owner goes', address: '10.128.5.30', excluding: { kind: 'record' as const, name: 'a' }, want: 'b' },
    { reason: 'an address nobody points at has none', address: '10.128.5.99', excluding: undefined, want: undefined },
  ];
  for (const row of rows) it(row.reason, () => expect(ptrOwner(row.address, names, row.excluding)).toBe(row.want));
});

describe('what happens to a PTR', () => {
  const zone = 'acme.lab.example.';
  const service = new Set(['web', 'site']);
  const rows = [
    { reason: 'none yet and an owner: set it', current: undefined, owner: 'web', want: { kind: 'set', owner: 'web' } },
    { reason: "the service's, another owner now: set it", current: 'site.acme.lab.example.', owner: 'web', want: { kind: 'set', owner: 'web' } },
    { reason: "the service's and no owner left: remove it", current: 'web.acme.lab.example.', owner: undefined, want: { kind: 'remove' } },
    { reason: "the tenant's own (a name the service does not publish): leave it", current: 'mine.acme.lab.example.', owner: 'web', want: { kind: 'leave' } },
    { reason: "the tenant's own, no owner: leave it", current: 'mine.acme.lab.example.', owner: undefined, want: { kind: 'leave' } },
    { reason: "a name outside the zone is not the service's", current: 'web.elsewhere.example.', owner: undefined, want: { kind: 'leave' } },
    { reason: 'none and no owner: nothing', current: undefined, owner: undefined, want: { kind: 'leave' } },
  ];
  for (const row of rows) it(row.reason, () => expect(ptrAction(row.current, row.owner, zone, service)).toEqual(row.want));

  it('compares names without case or trailing dot', () => {
    expect(isServicePtr('WEB.Acme.Lab.Example', zone, service)).toBe(true);
    expect(isServicePtr('x.web.acme.lab.example.', zone, service)).toBe(false);
  });
});
