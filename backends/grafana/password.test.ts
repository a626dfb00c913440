import { describe, expect, it } from 'vitest';
import { newDashboardPassword } from './password.js';
import { passwordRefusal } from '../../apps/lab/simulators/grafana/password.js';

// Grafana's rules as pkg/services/user/password.go states them (mirrored by the simulator).
describe('Grafana password rules', () => {
  it.each([
    ['default policy: 4 characters are enough', 'abcd', false, undefined],
    ['default policy: 3 are too few', 'abc', false, 'New password is too short'],
    ['strong policy: 11 characters are too few', 'Abcdefg12-x', true, 'New password is too short'],
    ['strong policy: no symbol', 'Abcdefghij12', true, "New password doesn't comply with the password policy"],
    ['strong policy: no upper case', 'abcdefghij1-', true, "New password doesn't comply with the password policy"],
    ['strong policy: no digit', 'Abcdefghijk-', true, "New password doesn't comply with the password policy"],
    ['strong policy: all four classes', 'Abcdefghij1-', true, undefined],
  ])('%s', (_why, password, strong, expected) => {
    expect(passwordRefusal(password, strong)).toBe(expected);
  });
});

describe('newDashboardPassword', () => {
  it('every generated password passes the strong policy, 24 characters, no two alike', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const p = newDashboardPassword();
      expect(p).toHaveLength(24);
      expect(passwordRefusal(p, true)).toBeUndefined();
      seen.add(p);
    }
    expect(seen.size).toBe(2000);
  });
});
