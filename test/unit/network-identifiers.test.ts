import { describe, it, expect } from 'vitest';
import {
  indexFromVnetId,
  indexFromVnetTag,
  indexFromVrfVni,
  siteNetworkProblems,
  tenantNetwork,
  vnetIdFor,
} from '../../activities/network/identifiers.js';

const site = { tenantSupernet: '10.128.0.0/16', vrfVniBase: 10000, vnetVniBase: 100000 };

describe('tenantNetwork', () => {
  const rows = [
    {
      reason: 'first tenant',
      name: 'acme',
      index: 1,
      want: { index: 1, zoneId: 'acme', vrfName: 'vrf_acme', vnetId: 'tv01', vrfVni: 10001, vnetVniBase: 100016, vnetTag: 100016, subnet: '10.128.1.0/24', gateway: '10.128.1.1', prefixLen: 24 },
    },
    {
      reason: 'a middle index pads to two digits only when needed',
      name: 'b2',
      index: 17,
      want: { index: 17, zoneId: 'b2', vrfName: 'vrf_b2', vnetId: 'tv17', vrfVni: 10017, vnetVniBase: 100272, vnetTag: 100272, subnet: '10.128.17.0/24', gateway: '10.128.17.1', prefixLen: 24 },
    },
    {
      reason: 'last allocatable index, 8-character name, other supernet',
      name: 'abcdefgh',
      index: 62,
      site: { tenantSupernet: '172.20.0.0/16', vrfVniBase: 5000, vnetVniBase: 20000 },
      want: { index: 62, zoneId: 'abcdefgh', vrfName: 'vrf_abcdefgh', vnetId: 'tv62', vrfVni: 5062, vnetVniBase: 20992, vnetTag: 20992, subnet: '172.20.62.0/24', gateway: '172.20.62.1', prefixLen: 24 },
    },
  ];
  for (const row of rows) it(row.reason, () => expect(tenantNetwork(row.name, row.index, row.site ?? site)).toEqual(row.want));

  const bad = [
    { reason: 'index 0', index: 0, site },
    { reason: 'reserved index 63 is never derived for a tenant', index: 63, site },
    { reason: 'fractional index', index: 2.5, site },
    { reason: 'supernet is a /24', index: 1, site: { ...site, tenantSupernet: '10.128.0.0/24' } },
    { reason: 'supernet has host bits', index: 1, site: { ...site, tenantSupernet: '10.128.4.0/16' } },
    { reason: 'supernet octet past 255', index: 1, site: { ...site, tenantSupernet: '10.300.0.0/16' } },
  ];
  for (const row of bad) it(`refuses: ${row.reason}`, () => expect(() => tenantNetwork('acme', row.index, row.site)).toThrow(RangeError));

  it('every VNet id is a valid Proxmox VNet id (<= 8 chars, letter first)', () => {
    for (let i = 1; i <= 62; i++) expect(vnetIdFor(i)).toMatch(/^[a-z][a-z0-9]{1,7}$/);
  });
});

describe('index parsers recover what the derivation put on the fabric', () => {
  it('round-trips every allocatable index', () => {
    for (let i = 1; i <= 62; i++) {
      const n = tenantNetwork('t', i, site);
      expect([indexFromVrfVni(n.vrfVni, site), indexFromVnetTag(n.vnetTag, site), indexFromVnetId(n.vnetId)]).toEqual([i, i, i]);
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

describe('siteNetworkProblems', () => {
  const rows = [
    { reason: 'the default plan is fine', site, want: 0 },
    { reason: 'overlapping VNI ranges', site: { ...site, vnetVniBase: 9990 }, want: 1 },
    { reason: 'VNet range past 24 bits', site: { ...site, vnetVniBase: 16_777_000 }, want: 1 },
    { reason: 'bad supernet', site: { ...site, tenantSupernet: '10.128.0.0/8' }, want: 1 },
  ];
  for (const row of rows) it(row.reason, () => expect(siteNetworkProblems(row.site)).toHaveLength(row.want));
});
