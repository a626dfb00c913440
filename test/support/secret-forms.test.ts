import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findSecrets } from './secret-forms.js';

/** The secrets scan's matcher finds a secret wherever it sits in an encoded blob (the scan's positive control). */
describe('secretForms / findSecrets', () => {
  const secret = 'tsig+/secret?with&odd=chars~1';
  const secrets = new Map([['s', secret]]);
  const cases: { form: string; blob: (before: Buffer, after: Buffer) => string }[] = [
    { form: 'raw', blob: (b, a) => `${b.toString('hex')}${secret}${a.toString('hex')}` },
    ...[0, 1, 2].map((k) => ({
      form: `base64@${k}`,
      blob: (b: Buffer, a: Buffer) => Buffer.concat([b.subarray(0, 3 * 5 + k), Buffer.from(secret), a]).toString('base64'),
    })),
    ...[0, 1, 2].map((k) => ({
      form: `base64url@${k}`,
      blob: (b: Buffer, a: Buffer) => Buffer.concat([b.subarray(0, 3 * 5 + k), Buffer.from(secret), a]).toString('base64url'),
    })),
    { form: 'hex', blob: (b, a) => Buffer.concat([b, Buffer.from(secret), a]).toString('hex') },
    {
      form: 'HEX',
      blob: (b, a) =>
        Buffer.concat([b, Buffer.from(secret), a])
          .toString('hex')
          .toUpperCase(),
    },
    { form: 'url-encoded', blob: (b, a) => `x=${b.toString('hex')}&t=${encodeURIComponent(secret)}&y=${a.toString('hex')}` },
  ];
  it.each(cases)('finds it $form, whatever the bytes around it', ({ form, blob }) => {
    for (let i = 0; i < 20; i++) {
      const hits = findSecrets(blob(randomBytes(32), randomBytes(1 + (i % 3))), 'blob', secrets);
      expect(hits, form).toHaveLength(1);
    }
  });
  it('finds nothing where the secret is not', () => {
    expect(findSecrets(randomBytes(4096).toString('base64') + randomBytes(2048).toString('hex'), 'noise', secrets)).toEqual([]);
  });
});
