import { describe, expect, it } from 'vitest';
import { hashBrokerPassword, mintBrokerPassword, verifyBrokerPassword } from './broker-password.js';

describe('broker account passwords', () => {
  it('mints 32 URL-safe characters, never the same twice', () => {
    const a = mintBrokerPassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(mintBrokerPassword()).not.toBe(a);
  });

  it('keeps only a salted scrypt hash: two hashes of one password differ, neither holds it', () => {
    const pw = mintBrokerPassword();
    const h1 = hashBrokerPassword(pw);
    const h2 = hashBrokerPassword(pw);
    expect(h1).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(h1).not.toBe(h2);
    expect(h1).not.toContain(pw);
  });

  it.each([
    ['the same password', (pw: string) => pw, true],
    ['another password', () => 'another-password-123456', false],
    ['a prefix', (pw: string) => pw.slice(0, -1), false],
  ])('verifies against the hash: %s', (_why, candidate, ok) => {
    const pw = mintBrokerPassword();
    expect(verifyBrokerPassword(candidate(pw), hashBrokerPassword(pw))).toBe(ok);
  });

  it('a stored value of another scheme never verifies', () => {
    expect(verifyBrokerPassword('x', 'plain$x')).toBe(false);
  });
});
