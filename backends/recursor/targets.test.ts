import { describe, it, expect } from 'vitest';
import { normalizeTarget } from './targets.js';

describe('normalizeTarget', () => {
  const rows = [
    { reason: 'port 53 when none given', target: '192.0.2.53', want: '192.0.2.53:53' },
    { reason: 'port kept', target: '127.0.0.1:5300', want: '127.0.0.1:5300' },
    { reason: 'bare IPv6 is bracketed', target: '2001:DB8::53', want: '[2001:db8::53]:53' },
    { reason: 'bracketed IPv6 with port', target: '[::1]:5300', want: '[::1]:5300' },
    { reason: 'bracketed IPv6 without port', target: '[::1]', want: '[::1]:53' },
  ];
  for (const row of rows) it(row.reason, () => expect(normalizeTarget(row.target)).toBe(row.want));
  for (const target of ['127.0.0.1:0', '127.0.0.1:70000', ':53', '[::1]:x']) {
    it(`refuses ${target}`, () => expect(() => normalizeTarget(target)).toThrow(RangeError));
  }
});
