import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site?.stop();
});

describe('tenant create', () => {
  it('creates a tenant', async () => {
    const r = await site.call('POST', '/v1/tenants', { body: { name: 'acme' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.outcome).toBe('created');
  });
});
