import { describe, it, expect } from 'vitest';
import { lowestFreeOrdinal, workloadAddress, workloadIdentity, workloadMac, workloadVmid } from './workload-identity.js';
import { checkDisk } from './disk-size.js';

describe('workloadIdentity', () => {
  const rows = [
    {
      reason: 'first workload of tenant 1',
      base: 10000,
      tenant: { index: 1, subnet: '10.128.1.0/24' },
      ordinal: 0,
      want: { ordinal: 0, vmid: 10040, mac: '02:00:00:00:27:38', address: '10.128.1.10' },
    },
    {
      reason: 'last ordinal of tenant 62',
      base: 10000,
      tenant: { index: 62, subnet: '10.128.62.0/24' },
      ordinal: 39,
      want: { ordinal: 39, vmid: 12519, mac: '02:00:00:00:30:e7', address: '10.128.62.49' },
    },
    {
      reason: 'a large base uses all four bytes',
      base: 300_000_000,
      tenant: { index: 5, subnet: '172.20.5.0/24' },
      ordinal: 7,
      want: { ordinal: 7, vmid: 300000207, mac: '02:00:11:e1:a3:cf', address: '172.20.5.17' },
    },
  ];
  for (const row of rows) it(row.reason, () => expect(workloadIdentity(row.base, row.tenant, row.ordinal)).toEqual(row.want));

  it('ordinals of one tenant never reach the next tenant', () => {
    expect(workloadVmid(10000, 1, 39)).toBeLessThan(workloadVmid(10000, 2, 0));
  });

  const bad = [
    { reason: 'ordinal 40', f: () => workloadVmid(10000, 1, 40) },
    { reason: 'negative ordinal', f: () => workloadAddress('10.128.1.0/24', -1) },
    { reason: 'VMID below 100', f: () => workloadVmid(0, 1, 0) },
    { reason: 'VMID past 999999999', f: () => workloadVmid(999_999_990, 1, 0) },
    { reason: 'subnet not a /24', f: () => workloadAddress('10.128.0.0/16', 0) },
    { reason: 'MAC of a VMID past 4 bytes', f: () => workloadMac(2 ** 32) },
  ];
  for (const row of bad) it(`refuses: ${row.reason}`, () => expect(row.f).toThrow(RangeError));
});

describe('lowestFreeOrdinal', () => {
  const rows = [
    { reason: 'none used', used: [], want: 0 },
    { reason: 'a gap is reused after a delete', used: [0, 1, 3], want: 2 },
    { reason: 'unordered input', used: [2, 0, 1], want: 3 },
    { reason: 'all 40 used', used: Array.from({ length: 40 }, (_, i) => i), want: undefined },
  ];
  for (const row of rows) it(row.reason, () => expect(lowestFreeOrdinal(row.used)).toBe(row.want));
});

describe('checkDisk', () => {
  const rows = [
    { reason: 'no size asked keeps the template size', req: undefined, tpl: 8, want: { ok: true, diskGb: 8 } },
    { reason: 'same size as the template', req: 8, tpl: 8, want: { ok: true, diskGb: 8 } },
    { reason: 'grows the template disk', req: 20, tpl: 8, want: { ok: true, diskGb: 20 } },
    { reason: 'grows a fractional template disk', req: 3, tpl: 2.2, want: { ok: true, diskGb: 3 } },
  ];
  for (const row of rows) it(row.reason, () => expect(checkDisk(row.req, row.tpl)).toEqual(row.want));

  const refused = [
    { reason: 'smaller than the template names its size', req: 4, tpl: 8, says: /template's disk of 8 GB/ },
    { reason: 'zero', req: 0, tpl: 8, says: /positive integer/ },
    { reason: 'fractional', req: 9.5, tpl: 8, says: /positive integer/ },
  ];
  for (const row of refused) {
    it(`refuses: ${row.reason}`, () => {
      const r = checkDisk(row.req, row.tpl);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(row.says);
    });
  }
});
