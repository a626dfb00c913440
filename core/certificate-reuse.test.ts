import { describe, it, expect } from 'vitest';
import { reusable } from './certificate-reuse.js';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2027-01-01T00:00:00Z');
const current = { publicKeyFingerprint: 'k1', sans: ['web.acme.site.example', 'www.acme.site.example'], notAfter: new Date(now.getTime() + 200 * DAY) };

describe('issuance rule 6: reuse or reissue', () => {
  it.each([
    ['same key, same names, 200 days left: the same certificate', current, { publicKeyFingerprint: 'k1', sans: current.sans }, true],
    ['names in another order are the same names', current, { publicKeyFingerprint: 'k1', sans: [...current.sans].reverse() }, true],
    ['61 days left is more than sixty', { ...current, notAfter: new Date(now.getTime() + 61 * DAY) }, { publicKeyFingerprint: 'k1', sans: current.sans }, true],
    [
      'exactly sixty days left: reissue',
      { ...current, notAfter: new Date(now.getTime() + 60 * DAY) },
      { publicKeyFingerprint: 'k1', sans: current.sans },
      false,
    ],
    ['ten days left: reissue', { ...current, notAfter: new Date(now.getTime() + 10 * DAY) }, { publicKeyFingerprint: 'k1', sans: current.sans }, false],
    ['expired: reissue', { ...current, notAfter: new Date(now.getTime() - DAY) }, { publicKeyFingerprint: 'k1', sans: current.sans }, false],
    ['a new key: reissue', current, { publicKeyFingerprint: 'k2', sans: current.sans }, false],
    ['a name added: reissue', current, { publicKeyFingerprint: 'k1', sans: [...current.sans, 'api.acme.site.example'] }, false],
    ['a name dropped: reissue', current, { publicKeyFingerprint: 'k1', sans: ['web.acme.site.example'] }, false],
    ['a name changed: reissue', current, { publicKeyFingerprint: 'k1', sans: ['web.acme.site.example', 'api.acme.site.example'] }, false],
  ])('%s', (_reason, cur, requested, want) => {
    expect(reusable(cur, requested, now)).toBe(want);
  });
});
