import { describe, it, expect } from 'vitest';
import { chooseAddress, formatIPv4, inRange, lowestFree, parseCidr, parseIPv4, parseRange, rangeFitsSubnet, rangeSize } from './address-ranges.js';

const range = parseRange('10.200.0.64-10.200.0.127')!;

describe('parseIPv4 / formatIPv4', () => {
  const rows: Array<{ text: string; ok: boolean; reason: string }> = [
    { text: '10.200.0.64', ok: true, reason: 'dotted quad' },
    { text: '0.0.0.0', ok: true, reason: 'all zeros' },
    { text: '255.255.255.255', ok: true, reason: 'all ones' },
    { text: '256.1.1.1', ok: false, reason: 'octet above 255' },
    { text: '10.200.0', ok: false, reason: 'three octets' },
    { text: '10.200.00.1', ok: false, reason: 'leading zero (would be octal to some parsers)' },
    { text: '10.200.0.1 ', ok: false, reason: 'trailing space' },
    { text: '::1', ok: false, reason: 'IPv6' },
  ];
  for (const row of rows) {
    it(`${row.reason}: ${row.text}`, () => {
      const n = parseIPv4(row.text);
      expect(n !== undefined).toBe(row.ok);
      if (n !== undefined) expect(formatIPv4(n)).toBe(row.text);
    });
  }
});

describe('parseRange / parseCidr', () => {
  const rows: Array<{ text: string; kind: 'range' | 'cidr'; size?: number; reason: string }> = [
    { text: '10.200.0.64-10.200.0.127', kind: 'range', size: 64, reason: 'a trust class range' },
    { text: '10.200.0.64 - 10.200.0.64', kind: 'range', size: 1, reason: 'one address, spaces around the dash' },
    { text: '10.200.0.127-10.200.0.64', kind: 'range', reason: 'reversed bounds are refused' },
    { text: '10.200.0.64', kind: 'range', reason: 'a single address is not a range' },
    { text: '10.200.0.64-10.200.0.300', kind: 'range', reason: 'a bad bound is refused' },
    { text: '10.200.0.0/24', kind: 'cidr', size: 256, reason: 'a /24' },
    { text: '10.200.0.0/32', kind: 'cidr', size: 1, reason: 'a /32' },
    { text: '10.200.0.1/24', kind: 'cidr', reason: 'host bits set' },
    { text: '10.200.0.0/33', kind: 'cidr', reason: 'prefix too long' },
    { text: '10.200.0.0', kind: 'cidr', reason: 'no prefix' },
  ];
  for (const row of rows) {
    it(row.reason, () => {
      const r = row.kind === 'range' ? parseRange(row.text) : parseCidr(row.text);
      expect(r === undefined ? undefined : rangeSize(r)).toBe(row.size);
    });
  }
});

describe('range membership', () => {
  const rows = [
    { address: '10.200.0.64', inside: true, reason: 'first address' },
    { address: '10.200.0.127', inside: true, reason: 'last address' },
    { address: '10.200.0.63', inside: false, reason: 'just below' },
    { address: '10.200.0.128', inside: false, reason: 'just above' },
    { address: '10.201.0.64', inside: false, reason: 'another network' },
    { address: 'not-an-ip', inside: false, reason: 'not an address' },
  ];
  for (const row of rows) {
    it(row.reason, () => expect(inRange(range, row.address)).toBe(row.inside));
  }

  it('a range must sit inside its subnet, off the network and broadcast addresses', () => {
    const subnet = parseCidr('10.200.0.0/24')!;
    expect(rangeFitsSubnet(range, subnet)).toBe(true);
    expect(rangeFitsSubnet(parseRange('10.200.0.0-10.200.0.10')!, subnet)).toBe(false);
    expect(rangeFitsSubnet(parseRange('10.200.0.200-10.200.0.255')!, subnet)).toBe(false);
    expect(rangeFitsSubnet(parseRange('10.200.1.1-10.200.1.10')!, subnet)).toBe(false);
  });
});

describe('lowestFree', () => {
  const rows: Array<{ taken: string[]; want: string | undefined; reason: string }> = [
    { taken: [], want: '10.200.0.64', reason: 'empty range gives its first address' },
    { taken: ['10.200.0.64', '10.200.0.65'], want: '10.200.0.66', reason: 'skips the taken prefix' },
    { taken: ['10.200.0.65'], want: '10.200.0.64', reason: 'fills a hole before taken addresses' },
    { taken: ['10.200.0.64', '10.200.0.66'], want: '10.200.0.65', reason: 'fills a hole between taken addresses' },
    { taken: ['10.200.0.1', 'junk'], want: '10.200.0.64', reason: 'addresses outside and junk are ignored' },
    { taken: Array.from({ length: 64 }, (_, i) => `10.200.0.${64 + i}`), want: undefined, reason: 'full range gives none' },
  ];
  for (const row of rows) {
    it(row.reason, () => expect(lowestFree(range, row.taken)).toBe(row.want));
  }
});

describe('chooseAddress', () => {
  const full = Array.from({ length: 64 }, (_, i) => `10.200.0.${64 + i}`);
  const rows: Array<{
    input: { taken: string[]; heldByTenant: number; share: number; requested?: string };
    want: ReturnType<typeof chooseAddress>;
    reason: string;
  }> = [
    { input: { taken: [], heldByTenant: 0, share: 4 }, want: { ok: true, address: '10.200.0.64' }, reason: 'empty body: lowest free' },
    { input: { taken: ['10.200.0.64'], heldByTenant: 1, share: 4 }, want: { ok: true, address: '10.200.0.65' }, reason: 'lowest free after taken' },
    {
      input: { taken: [], heldByTenant: 0, share: 4, requested: '10.200.0.100' },
      want: { ok: true, address: '10.200.0.100' },
      reason: 'requested free address',
    },
    {
      input: { taken: ['10.200.0.100'], heldByTenant: 0, share: 4, requested: '10.200.0.100' },
      want: { ok: false, reason: 'taken' },
      reason: 'requested address held by someone (409)',
    },
    {
      input: { taken: [], heldByTenant: 0, share: 4, requested: '10.200.0.10' },
      want: { ok: false, reason: 'outside-range' },
      reason: 'requested outside the tenant range (400)',
    },
    {
      input: { taken: [], heldByTenant: 0, share: 4, requested: '10.200.0' },
      want: { ok: false, reason: 'not-an-address' },
      reason: 'requested is no address (400)',
    },
    { input: { taken: [], heldByTenant: 4, share: 4 }, want: { ok: false, reason: 'share-full' }, reason: 'tenant holds its full share (409)' },
    { input: { taken: full, heldByTenant: 0, share: 4 }, want: { ok: false, reason: 'range-full' }, reason: 'range full (409)' },
    {
      input: { taken: [], heldByTenant: 4, share: 4, requested: '10.200.0.1' },
      want: { ok: false, reason: 'outside-range' },
      reason: 'a bad request is a 400 before any 409',
    },
  ];
  for (const row of rows) {
    it(row.reason, () => expect(chooseAddress({ range, ...row.input })).toEqual(row.want));
  }
});
