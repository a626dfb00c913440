import { describe, it, expect } from 'vitest';
import { absoluteName, isInZone, ptrName, tenantDnsNames, tenantSubnet } from './names.js';

describe('tenantDnsNames', () => {
  const rows = [
    {
      reason: 'first tenant of a 10.128/16 site',
      input: { tenant: 'acme', siteDomain: 'lab.example', index: 1, supernet: '10.128.0.0/16' },
      want: {
        zone: 'acme.lab.example.',
        reverseZone: '1.128.10.in-addr.arpa.',
        subnet: '10.128.1.0/24',
        tsigKeyName: 'tenant-acme',
        tsigAlgorithm: 'hmac-sha256',
      },
    },
    {
      reason: 'domain given absolute and in capitals is normalised',
      input: { tenant: 'b2', siteDomain: 'Site.Example.ORG.', index: 62, supernet: '172.20.0.0/16' },
      want: {
        zone: 'b2.site.example.org.',
        reverseZone: '62.20.172.in-addr.arpa.',
        subnet: '172.20.62.0/24',
        tsigKeyName: 'tenant-b2',
        tsigAlgorithm: 'hmac-sha256',
      },
    },
    {
      reason: 'longest tenant name',
      input: { tenant: 'abcdefgh', siteDomain: 'x.test', index: 17, supernet: '192.168.0.0/16' },
      want: {
        zone: 'abcdefgh.x.test.',
        reverseZone: '17.168.192.in-addr.arpa.',
        subnet: '192.168.17.0/24',
        tsigKeyName: 'tenant-abcdefgh',
        tsigAlgorithm: 'hmac-sha256',
      },
    },
  ];
  for (const row of rows) {
    it(row.reason, () => expect(tenantDnsNames(row.input)).toEqual(row.want));
  }

  const bad = [
    { reason: 'supernet is not a /16', input: { tenant: 'acme', siteDomain: 'lab.example', index: 1, supernet: '10.128.0.0/24' } },
    { reason: 'supernet has host bits', input: { tenant: 'acme', siteDomain: 'lab.example', index: 1, supernet: '10.128.4.0/16' } },
    { reason: 'supernet is not an address', input: { tenant: 'acme', siteDomain: 'lab.example', index: 1, supernet: '10.300.0.0/16' } },
    { reason: 'index 0', input: { tenant: 'acme', siteDomain: 'lab.example', index: 0, supernet: '10.128.0.0/16' } },
    { reason: 'index past the /16', input: { tenant: 'acme', siteDomain: 'lab.example', index: 256, supernet: '10.128.0.0/16' } },
    { reason: 'fractional index', input: { tenant: 'acme', siteDomain: 'lab.example', index: 1.5, supernet: '10.128.0.0/16' } },
    { reason: 'tenant name with a dot', input: { tenant: 'a.b', siteDomain: 'lab.example', index: 1, supernet: '10.128.0.0/16' } },
    { reason: 'tenant name too long', input: { tenant: 'abcdefghi', siteDomain: 'lab.example', index: 1, supernet: '10.128.0.0/16' } },
    { reason: 'root as site domain', input: { tenant: 'acme', siteDomain: '.', index: 1, supernet: '10.128.0.0/16' } },
    { reason: 'site domain with an empty label', input: { tenant: 'acme', siteDomain: 'lab..example', index: 1, supernet: '10.128.0.0/16' } },
  ];
  for (const row of bad) {
    it(`refuses: ${row.reason}`, () => expect(() => tenantDnsNames(row.input)).toThrow(RangeError));
  }
});

describe('tenantSubnet', () => {
  const rows = [
    { reason: 'i-th /24', supernet: '10.128.0.0/16', index: 5, want: '10.128.5.0/24' },
    { reason: 'last /24', supernet: '10.128.0.0/16', index: 255, want: '10.128.255.0/24' },
  ];
  for (const row of rows) it(row.reason, () => expect(tenantSubnet(row.supernet, row.index)).toBe(row.want));
});

describe('ptrName', () => {
  const rows = [
    { reason: 'workload address', address: '10.128.1.10', want: '10.1.128.10.in-addr.arpa.' },
    { reason: 'zero octet', address: '10.0.7.0', want: '0.7.0.10.in-addr.arpa.' },
  ];
  for (const row of rows) it(row.reason, () => expect(ptrName(row.address)).toBe(row.want));
  for (const address of ['10.128.1', '10.128.1.256', '10.128.01.1', 'fe80::1', '']) {
    it(`refuses ${JSON.stringify(address)}`, () => expect(() => ptrName(address)).toThrow(RangeError));
  }
});

describe('absoluteName and isInZone', () => {
  const names = [
    { reason: 'relative gains the dot', name: 'A.Example', want: 'a.example.' },
    { reason: 'absolute stays', name: 'a.example.', want: 'a.example.' },
    { reason: 'root', name: '.', want: '.' },
  ];
  for (const row of names) it(row.reason, () => expect(absoluteName(row.name)).toBe(row.want));

  const zones = [
    { reason: 'apex is in its zone', name: 'acme.lab.example.', zone: 'acme.lab.example.', want: true },
    { reason: 'child name', name: 'web.acme.lab.example', zone: 'acme.lab.example.', want: true },
    { reason: 'sibling with the zone as suffix of a label', name: 'xacme.lab.example.', zone: 'acme.lab.example.', want: false },
    { reason: 'parent', name: 'lab.example.', zone: 'acme.lab.example.', want: false },
    { reason: 'ptr in reverse zone', name: '10.1.128.10.in-addr.arpa.', zone: '1.128.10.in-addr.arpa.', want: true },
  ];
  for (const row of zones) it(row.reason, () => expect(isInZone(row.name, row.zone)).toBe(row.want));
});
