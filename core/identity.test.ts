import { describe, it, expect } from 'vitest';
import { indexFromVnetId, indexFromVnetTag, indexFromVrfVni, addressPlanProblems, chooseIndex, deriveIdentity, stateAccessKey, vnetFor } from './identity.js';

const site = { supernet: '10.128.0.0/16', vrfVniBase: 10000, vnetVniBase: 100000, domain: 'lab.example', logAccountBase: 1000 };

describe('deriveIdentity', () => {
  const rows = [
    {
      reason: 'first tenant',
      name: 'acme',
      index: 1,
      want: {
        name: 'acme',
        index: 1,
        fabricZone: 'acme',
        vrf: 'vrf_acme',
        vnet: 'tv01',
        vrfVni: 10001,
        vnetVniBase: 100016,
        vnetTag: 100016,
        subnet: '10.128.1.0/24',
        gateway: '10.128.1.1',
        prefixLength: 24,
        zone: 'acme.lab.example',
        reverseZone: '1.128.10.in-addr.arpa',
        tsigKeyName: 'tenant-acme',
        tsigAlgorithm: 'hmac-sha256',
        stateAccessKey: 'acme',
        stateKeyPrefix: 'acme/',
        logAccountId: 1001,
      },
    },
    {
      reason: 'a middle index pads to two digits only when needed',
      name: 'b2',
      index: 17,
      want: {
        name: 'b2',
        index: 17,
        fabricZone: 'b2',
        vrf: 'vrf_b2',
        vnet: 'tv17',
        vrfVni: 10017,
        vnetVniBase: 100272,
        vnetTag: 100272,
        subnet: '10.128.17.0/24',
        gateway: '10.128.17.1',
        prefixLength: 24,
        // A two-character name is too short for a MinIO access key: prefixed.
        zone: 'b2.lab.example',
        reverseZone: '17.128.10.in-addr.arpa',
        tsigKeyName: 'tenant-b2',
        tsigAlgorithm: 'hmac-sha256',
        stateAccessKey: 'tenant-b2',
        stateKeyPrefix: 'b2/',
        logAccountId: 1017,
      },
    },
    {
      reason: 'last allocatable index, 8-character name, other supernet',
      name: 'abcdefgh',
      index: 62,
      site: { supernet: '172.20.0.0/16', vrfVniBase: 5000, vnetVniBase: 20000, domain: 'b.example', logAccountBase: 0 },
      want: {
        name: 'abcdefgh',
        index: 62,
        fabricZone: 'abcdefgh',
        vrf: 'vrf_abcdefgh',
        vnet: 'tv62',
        vrfVni: 5062,
        vnetVniBase: 20992,
        vnetTag: 20992,
        subnet: '172.20.62.0/24',
        gateway: '172.20.62.1',
        prefixLength: 24,
        zone: 'abcdefgh.b.example',
        reverseZone: '62.20.172.in-addr.arpa',
        tsigKeyName: 'tenant-abcdefgh',
        tsigAlgorithm: 'hmac-sha256',
        stateAccessKey: 'abcdefgh',
        stateKeyPrefix: 'abcdefgh/',
        logAccountId: 62,
      },
    },
  ];
  for (const row of rows) it(row.reason, () => expect(deriveIdentity(row.site ?? site, row.name, row.index)).toEqual(row.want));

  const bad = [
    { reason: 'index 0', index: 0, site },
    { reason: 'reserved index 63 is never derived for a tenant', index: 63, site },
    { reason: 'fractional index', index: 2.5, site },
    { reason: 'supernet is a /24', index: 1, site: { ...site, supernet: '10.128.0.0/24' } },
    { reason: 'supernet has host bits', index: 1, site: { ...site, supernet: '10.128.4.0/16' } },
    { reason: 'supernet octet past 255', index: 1, site: { ...site, supernet: '10.300.0.0/16' } },
  ];
  for (const row of bad) it(`refuses: ${row.reason}`, () => expect(() => deriveIdentity(row.site, 'acme', row.index)).toThrow(RangeError));

  it('every VNet id is a valid Proxmox VNet id (<= 8 chars, letter first)', () => {
    for (let i = 1; i <= 62; i++) expect(vnetFor(i)).toMatch(/^[a-z][a-z0-9]{1,7}$/);
  });
});

describe('index parsers recover what the derivation put on the fabric', () => {
  it('round-trips every allocatable index', () => {
    for (let i = 1; i <= 62; i++) {
      const n = deriveIdentity(site, 't', i);
      expect([indexFromVrfVni(n.vrfVni, site), indexFromVnetTag(n.vnetTag, site), indexFromVnetId(n.vnet)]).toEqual([i, i, i]);
    }
  });

  const vrf = [
    { reason: 'VRF VNI of index 5', vni: 10005, want: 5 },
    { reason: 'the reserved index is still reported', vni: 10063, want: 63 },
    { reason: 'the base itself is no tenant', vni: 10000, want: undefined },
    { reason: 'below the base', vni: 9999, want: undefined },
    { reason: 'past the index space', vni: 10064, want: undefined },
  ];
  for (const row of vrf) it(`vrf: ${row.reason}`, () => expect(indexFromVrfVni(row.vni, site)).toBe(row.want));

  const tags = [
    { reason: 'first VNI of index 3', tag: 100048, want: 3 },
    { reason: 'last of the 16 VNIs of index 3', tag: 100063, want: 3 },
    { reason: 'first VNI of index 4', tag: 100064, want: 4 },
    { reason: 'inside the unused block of index 0', tag: 100005, want: undefined },
    { reason: 'below the base', tag: 99999, want: undefined },
    { reason: 'past the index space', tag: 100000 + 16 * 64, want: undefined },
  ];
  for (const row of tags) it(`tag: ${row.reason}`, () => expect(indexFromVnetTag(row.tag, site)).toBe(row.want));

  const ids = [
    { reason: 'tv05', id: 'tv05', want: 5 },
    { reason: 'tv63', id: 'tv63', want: 63 },
    { reason: 'tv00 is no index', id: 'tv00', want: undefined },
    { reason: 'three digits are not ours', id: 'tv005', want: undefined },
    { reason: 'another naming scheme', id: 'vnet5', want: undefined },
  ];
  for (const row of ids) it(`vnet id: ${row.reason}`, () => expect(indexFromVnetId(row.id)).toBe(row.want));
});

describe('addressPlanProblems', () => {
  const rows = [
    { reason: 'the default plan is fine', site, want: 0 },
    { reason: 'overlapping VNI ranges', site: { ...site, vnetVniBase: 9990 }, want: 1 },
    { reason: 'VNet range past 24 bits', site: { ...site, vnetVniBase: 16_777_000 }, want: 1 },
    { reason: 'bad supernet', site: { ...site, supernet: '10.128.0.0/8' }, want: 1 },
  ];
  for (const row of rows) it(row.reason, () => expect(addressPlanProblems(row.site)).toHaveLength(row.want));
});

describe('stateAccessKey', () => {
  const rows = [
    { reason: 'a name of three or more characters is its own key', name: 'abc', want: 'abc' },
    { reason: 'a two-character name is prefixed (MinIO refuses keys under 3)', name: 'b2', want: 'tenant-b2' },
    { reason: 'a one-character name is prefixed', name: 'a', want: 'tenant-a' },
  ];
  for (const row of rows) it(row.reason, () => expect(stateAccessKey(row.name)).toBe(row.want));
});

describe('chooseIndex', () => {
  const rows = [
    { reason: 'the requested index when free', opts: { requested: 7, taken: new Set([1]) }, want: 7 },
    { reason: 'the fabric index of the name when the requested one is taken', opts: { requested: 1, fabricIndexOfName: 9, taken: new Set([1]) }, want: 9 },
    { reason: 'the lowest free otherwise', opts: { taken: new Set([1, 2, 4]) }, want: 3 },
    { reason: 'never the reserved index', opts: { requested: 63, taken: new Set<number>() }, want: 1 },
    { reason: 'none when all 62 are taken', opts: { taken: new Set(Array.from({ length: 62 }, (_, i) => i + 1)) }, want: undefined },
  ];
  for (const row of rows) it(row.reason, () => expect(chooseIndex(row.opts)).toBe(row.want));
});
