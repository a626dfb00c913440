import { describe, expect, it } from 'vitest';
import { callDigest } from './call-digest.js';

describe('callDigest: the same call whoever makes it, another call when it asks something else', () => {
  const base = { tenant: 'acme', name: 'app', publish: ['acme/data/#'], subscribe: [] };
  it.each([
    ['another key order', { subscribe: [], name: 'app', tenant: 'acme', publish: ['acme/data/#'] }, true],
    ['another actor', { ...base, actor: 'tenant:acme' }, true],
    ['an undefined field', { ...base, password: undefined }, true],
    ['other patterns', { ...base, subscribe: ['acme/status/#'] }, false],
    ['a restore secret added', { ...base, password: 'sealed:x' }, false],
    ['the same list in another order (order is meaningful)', { ...base, publish: ['acme/x', 'acme/data/#'] }, false],
  ] as const)('%s', (_why, other, same) => {
    expect(callDigest({ ...base, actor: 'operator' }) === callDigest(other)).toBe(same);
  });
});
