import { describe, it, expect } from 'vitest';
import { PSK_ALPHABET, PSK_LENGTH, PSK_MAX, generatePsk, isPlaceholderPassword, placeholderPassword, pskFingerprint, pskProblem } from './wifi-psk.js';

describe('pskProblem', () => {
  const rows: Array<{ psk: string; ok: boolean; reason: string }> = [
    { psk: 'abcdefgh', ok: true, reason: '8 characters is the minimum' },
    { psk: 'a'.repeat(63), ok: true, reason: '63 characters is the maximum passphrase' },
    { psk: 'with spaces and ~!@#$%^&*()', ok: true, reason: 'any printable ASCII is allowed' },
    { psk: 'abcdefg', ok: false, reason: '7 characters is too short' },
    { psk: 'a'.repeat(64), ok: false, reason: '64 characters would be read as a raw hex PSK' },
    { psk: 'tab\there-ok', ok: false, reason: 'control characters are refused' },
    { psk: 'grüße-mein-wlan', ok: false, reason: 'non-ASCII is refused' },
    { psk: '~revoked~abcdefgh', ok: false, reason: 'the placeholder form is reserved' },
  ];
  for (const row of rows) {
    it(row.reason, () => {
      expect(pskProblem(row.psk) === undefined).toBe(row.ok);
    });
  }
});

describe('generatePsk', () => {
  it('makes 24 characters from the look-alike-free alphabet, different every time', () => {
    const keys = Array.from({ length: 200 }, () => generatePsk());
    for (const k of keys) {
      expect(k).toHaveLength(PSK_LENGTH);
      expect([...k].every((ch) => PSK_ALPHABET.includes(ch))).toBe(true);
      expect(pskProblem(k)).toBeUndefined();
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('leaves out characters people confuse when typing a key onto a device', () => {
    for (const ch of '0O1lI') expect(PSK_ALPHABET).not.toContain(ch);
  });
});

describe('placeholder passwords', () => {
  it('are random, recognisable, of maximum length, and never a valid tenant psk', () => {
    const a = placeholderPassword();
    const b = placeholderPassword();
    expect(a).not.toBe(b);
    expect(a).toHaveLength(PSK_MAX);
    expect(isPlaceholderPassword(a)).toBe(true);
    expect(isPlaceholderPassword(generatePsk())).toBe(false);
    expect(pskProblem(a)).toBeDefined();
  });
});

describe('pskFingerprint', () => {
  const rows = [
    { a: ['acme/door', 'secret-key-1'], b: ['acme/door', 'secret-key-1'], same: true, reason: 'same key and psk: same fingerprint' },
    { a: ['acme/door', 'secret-key-1'], b: ['acme/door', 'secret-key-2'], same: false, reason: 'another psk: another fingerprint' },
    { a: ['acme/door', 'secret-key-1'], b: ['beta/door', 'secret-key-1'], same: false, reason: 'another key id: another fingerprint' },
    { a: ['acme/do', 'or\u0000x'], b: ['acme/door', '\u0000x'], same: false, reason: 'the separator keeps id and psk apart' },
  ] as const;
  for (const row of rows) {
    it(row.reason, () => {
      expect(pskFingerprint(row.a[0], row.a[1]) === pskFingerprint(row.b[0], row.b[1])).toBe(row.same);
    });
  }

  it('is hex SHA-256 and does not contain the psk', () => {
    const fp = pskFingerprint('acme/door', 'secret-key-1');
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
    expect(fp).not.toContain('secret');
  });
});
