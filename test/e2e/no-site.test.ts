import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';
import { HEALTHY, READY } from '../support/health-answers.js';

/**
 * With only the required settings the service runs and every tenant route answers 501 (spec:
 * Configuration, rule 7); authentication still comes first, and the routes that need no site work.
 */
let site: TestSite;
beforeAll(async () => {
  site = await startTestSite({ withoutSite: true });
});
afterAll(async () => {
  await site?.stop();
});

const NO_SITE = '{"error":"no site configured"}';
const NO_ENROLLMENT = '{"error":"enrollment not configured"}';

describe('an instance with no site configured', () => {
  it('has no site in its configuration', () => {
    expect(site.config.site).toBeUndefined();
  });

  it.each([
    ['GET', '/v1/tenants', undefined, NO_SITE],
    ['POST', '/v1/tenants', { name: 'acme' }, NO_SITE],
    ['GET', '/v1/tenants/acme', undefined, NO_SITE],
    ['DELETE', '/v1/tenants/acme', undefined, NO_SITE],
    ['POST', '/v1/tenants/acme/reconcile', undefined, NO_SITE],
    ['POST', '/v1/admissions', { name: 'acme' }, NO_ENROLLMENT],
    ['DELETE', '/v1/admissions/acme', undefined, NO_ENROLLMENT],
  ])('%s %s with the operator token is 501', async (method, path, body, text) => {
    const r = await site.call(method, path, { body });
    expect([r.status, r.text]).toEqual([501, text]);
  });

  it.each([
    ['GET', '/v1/tenants', undefined],
    ['POST', '/v1/tenants', { name: 'acme' }],
    ['POST', '/v1/admissions', { name: 'acme' }],
  ])('%s %s without a token is still 401', async (method, path, body) => {
    const r = await site.call(method, path, { token: null, body });
    expect([r.status, r.text]).toEqual([401, '{"error":"unauthorized"}']);
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="svc-api"');
  });

  it('a tenant-shaped token is not recognised (no token key without a site): 401', async () => {
    const r = await site.call('GET', '/v1/tenants/acme', { token: 'dvt1.acme.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect([r.status, r.text]).toEqual([401, '{"error":"unauthorized"}']);
  });

  it('request validation does not run ahead of the 501', async () => {
    const r = await site.call('POST', '/v1/tenants', { body: { name: 'acme', colour: 'blue' } });
    expect([r.status, r.text]).toEqual([501, NO_SITE]);
  });

  it('the body limit still applies (413 before 501)', async () => {
    const r = await site.call('POST', '/v1/tenants', { raw: JSON.stringify({ name: 'x'.repeat(70_000) }), headers: { 'content-type': 'application/json' } });
    expect([r.status, r.text]).toEqual([413, '{"error":"request body larger than 64 KB"}']);
  });

  it('service routes and the fabric egress list work', async () => {
    for (const [path, text] of [
      ['/healthz', HEALTHY],
      ['/readyz', READY],
    ]) {
      const r = await site.call('GET', path!, { token: null });
      expect([r.status, r.text]).toEqual([200, text]);
    }
    const egress = await site.call('GET', '/v1/fabric/egress', { token: site.egressToken });
    expect([egress.status, egress.text]).toEqual([200, '{"vrfs":[]}']);
  });
});
