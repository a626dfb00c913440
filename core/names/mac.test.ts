import { describe, it, expect } from 'vitest';
import { nicMacReason, normalizeMac } from './mac.js';
import { AdmissionRequest } from '../../apps/api/schemas/admission.js';
import { DeviceRequest } from '../../apps/api/schemas/device.js';

describe('normalizeMac', () => {
  const rows: Array<{ input: string; want: string | undefined; reason: string }> = [
    { input: 'aa:bb:cc:dd:ee:ff', want: 'aa:bb:cc:dd:ee:ff', reason: 'lowercase colon form is kept' },
    { input: 'AA:BB:CC:DD:EE:FF', want: 'aa:bb:cc:dd:ee:ff', reason: 'uppercase colon form is lowered' },
    { input: 'AA-BB-CC-DD-EE-FF', want: 'aa:bb:cc:dd:ee:ff', reason: 'dash form becomes colon form' },
    { input: 'aa-bb-cc-dd-ee-ff', want: 'aa:bb:cc:dd:ee:ff', reason: 'lowercase dash form is accepted too' },
    { input: 'aabbccddeeff', want: 'aa:bb:cc:dd:ee:ff', reason: 'bare hex is split into pairs' },
    { input: '0200DEADBEEF', want: '02:00:de:ad:be:ef', reason: 'bare uppercase hex' },
    { input: 'aa:bb-cc:dd-ee:ff', want: undefined, reason: 'mixed separators are refused' },
    { input: 'aa:bb:cc:dd:ee', want: undefined, reason: 'five octets are too few' },
    { input: 'aa:bb:cc:dd:ee:ff:00', want: undefined, reason: 'seven octets are too many' },
    { input: 'aabb.ccdd.eeff', want: undefined, reason: 'Cisco dotted form is not an accepted form' },
    { input: 'gg:bb:cc:dd:ee:ff', want: undefined, reason: 'non-hex digits are refused' },
    { input: 'a:bb:cc:dd:ee:ff', want: undefined, reason: 'single-digit octets are refused' },
    { input: ' aa:bb:cc:dd:ee:ff', want: undefined, reason: 'surrounding whitespace is refused' },
    { input: 'aabbccddeef', want: undefined, reason: 'eleven hex digits are refused' },
    { input: '', want: undefined, reason: 'empty is refused' },
  ];
  for (const row of rows) {
    it(`${row.reason}: ${JSON.stringify(row.input)}`, () => {
      expect(normalizeMac(row.input)).toBe(row.want);
    });
  }
});

// Issue 27 item 7: no network card has a broadcast, multicast or all-zero address.
describe('nicMacReason (a MAC a device can have)', () => {
  it.each([
    ['a unicast, globally administered address', 'a4:83:e7:12:34:56', null],
    ['a locally administered unicast address', '02:00:de:ad:be:ef', null],
    ['the dash and bare forms', 'A4-83-E7-12-34-56', null],
    ['broadcast', 'ff:ff:ff:ff:ff:ff', /broadcast/],
    ['broadcast, bare uppercase', 'FFFFFFFFFFFF', /broadcast/],
    ['IPv4 multicast (01:00:5e)', '01:00:5e:00:00:fb', /multicast/],
    ['IPv6 multicast (33:33)', '33:33:00:00:00:01', /multicast/],
    ['any odd first octet is a group address', 'ab:cd:ef:01:23:45', /multicast/],
    ['all zero', '00:00:00:00:00:00', /all zero/],
    ['all zero, bare', '000000000000', /all zero/],
    ['not a MAC form', 'aa:bb', /must be a MAC like/],
  ])('%s: %j', (_case, input, want) => {
    const got = nicMacReason(input);
    if (want === null) expect(got).toBeNull();
    else expect(got).toMatch(want);
  });

  it.each([
    ['admission', (mac: string) => AdmissionRequest.safeParse({ name: 'acme', mac })],
    ['device', (mac: string) => DeviceRequest.safeParse({ name: 'cam', trust_class: 'sensor', mac })],
  ])('the %s schema refuses them with the reason', (_which, parse) => {
    expect(parse('02:00:de:ad:be:ef').success).toBe(true);
    for (const [mac, why] of [
      ['ff:ff:ff:ff:ff:ff', /broadcast/],
      ['01:00:5e:00:00:01', /multicast/],
      ['00:00:00:00:00:00', /all zero/],
    ] as const) {
      const r = parse(mac);
      expect(r.success, mac).toBe(false);
      expect(r.error?.issues[0]?.path, mac).toEqual(['mac']);
      expect(r.error?.issues[0]?.message, mac).toMatch(why);
    }
  });
});
