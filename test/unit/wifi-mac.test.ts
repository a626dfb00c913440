import { describe, it, expect } from 'vitest';
import { normalizeMac, requireMac } from '../../activities/wifi/mac.js';

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

  it('requireMac throws on a refused form and returns the colon form otherwise', () => {
    expect(requireMac('AABBCCDDEEFF')).toBe('aa:bb:cc:dd:ee:ff');
    expect(() => requireMac('nope')).toThrow(RangeError);
  });
});
