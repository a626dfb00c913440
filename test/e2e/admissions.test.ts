import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answered, clientFor } from '../support/client.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectUnauthorized } from '../support/tenant-body.js';

/**
 * Admissions through the HTTP API: the operator admits a name, the single-use enrollment token
 * creates that one tenant once, and a token presented for another name, re-admitted, withdrawn
 * or expired stops working. This site has no tenant developer network, so no Wi-Fi key is issued.
 */
let site: TestSite;

/** Through the typed client, as a caller's code would (malformed bodies go through `site.call`). */
async function admit(body: { name: string; mac?: string }, token?: string | null) {
  return answered(clientFor(site, token).POST('/v1/admissions', { body }));
}

const get = (path: '/v1/tenants' | '/v1/fabric/egress', token?: string) => answered(clientFor(site, token).GET(path));
const getTenant = (t: string, token?: string) => answered(clientFor(site, token).GET('/v1/tenants/{t}', { params: { path: { t } } }));
const withdraw = (t: string, token?: string | null) => answered(clientFor(site, token).DELETE('/v1/admissions/{t}', { params: { path: { t } } }));

async function enroll(name: string): Promise<string> {
  const r = await admit({ name });
  expect(r.status, r.text).toBe(201);
  return r.body.enrollment_token;
}

const createWith = (token: string, name: string) => answered(clientFor(site, token).POST('/v1/tenants', { body: { name } }));

beforeAll(async () => {
  // Without a tenant developer network, an admission carries no Wi-Fi key (spec: Admission).
  site = await startTestSite({ env: { SITE_WIFI_DEVELOPER_SSID: '', SITE_WIFI_DEVELOPER_VLAN: '', SITE_WIFI_DEVELOPER_BOUND_SSID: '' } });
  const r = await createWith(site.operatorToken, 'adreg');
  expect(r.status, r.text).toBe(201);
});
afterAll(async () => {
  await site?.stop();
});

describe('POST /v1/admissions', () => {
  it('admits a name: a token valid for 72 hours and no Wi-Fi key', async () => {
    const before = Date.now();
    const r = await admit({ name: 'ada' });
    expect(r.status, r.text).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['enrollment_token', 'expires_at', 'name']);
    expect(r.body.name).toBe('ada');
    expect(r.body.enrollment_token).toEqual(expect.any(String));
    expect(r.body.enrollment_token.length).toBeGreaterThanOrEqual(20);
    expect(r.body.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    const ahead = Date.parse(r.body.expires_at) - before;
    expect(Math.abs(ahead - 72 * 3600_000)).toBeLessThan(60_000);
    expect(r.body).not.toHaveProperty('wifi');
  });

  it('accepts a MAC in each documented form', async () => {
    for (const mac of ['aa:bb:cc:dd:ee:01', 'AA-BB-CC-DD-EE-02', 'aabbccddee03']) {
      const r = await admit({ name: 'admac', mac });
      expect(r.status, r.text).toBe(201);
      expect(r.body).not.toHaveProperty('wifi');
    }
  });

  it('refuses a name that is already a registered tenant with 409', async () => {
    const r = await admit({ name: 'adreg' });
    expect(r.status, r.text).toBe(409);
    expect(r.body.error).toEqual(expect.any(String));
  });

  it('refuses bad names, unknown fields and bad MACs with 400 and a reason', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'Bad' }, /name/],
      [{ name: '1abc' }, /name/],
      [{ name: 'toolongname' }, /name/],
      [{ name: '' }, /name/],
      [{}, /name/],
      [{ name: 'adx', extra: 1 }, /unknown field "extra"/],
      [{ name: 'adx', mac: 'aa:bb:cc:dd:ee' }, /mac/],
      [{ name: 'adx', mac: 'aa:bb-cc:dd:ee:ff' }, /mac/],
      [{ name: 'adx', mac: 'gg:bb:cc:dd:ee:ff' }, /mac/],
      [{ name: 'adx', mac: 12 }, /mac/],
    ];
    for (const [body, reason] of cases) {
      const r = await site.call('POST', '/v1/admissions', { body });
      expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(400);
      expect(r.body.error).toMatch(reason);
    }
  });

  it('needs a token', async () => {
    expectUnauthorized(await admit({ name: 'adx' }, null));
    expectUnauthorized(await withdraw('adx', null));
  });
});

describe('the enrollment token', () => {
  it('creates its own tenant once, and is spent by it', async () => {
    const token = await enroll('adb');
    // Reads are not what it is for; they do not spend it either.
    expectUnauthorized(await getTenant('adb', token));
    expectUnauthorized(await getTenant('adreg', token));
    expectUnauthorized(await get('/v1/tenants', token));
    expectUnauthorized(await get('/v1/fabric/egress', token));

    const r = await createWith(token, 'adb');
    expect(r.status, r.text).toBe(201);
    expect(r.body.outcome).toBe('created');
    expect(r.body.api_token).toMatch(/^dvt1\.adb\./);

    expectUnauthorized(await createWith(token, 'adb'));
    // The tenant now holds its own token instead (rule 1).
    expect((await getTenant('adb', r.body.api_token)).status).toBe(200);
    expect((await admit({ name: 'adb' })).status).toBe(409);
  });

  it("spent by a create that failed at a step: presented again, 401 says how to resume; the tenant's own token resumes", async () => {
    const token = await enroll('adresume');
    site.backends.pdns.faults.add({ failNext: 1000, status: 500, match: '/zones' });
    let failed;
    try {
      failed = await createWith(token, 'adresume');
    } finally {
      site.backends.pdns.faults.clear();
    }
    expect(failed.status, failed.text).toBe(502);
    const again = await createWith(token, 'adresume');
    expect(again.status, again.text).toBe(401);
    expect(again.body).toEqual({ error: "unauthorized: this enrollment token was spent; resume with the tenant's own token (api_token in the 502 answer)" });
    expect(again.headers.get('www-authenticate')).toBe('Bearer realm="svc-api"');
    // Only there: on a read it is the plain refusal, as is a token the service never issued.
    expectUnauthorized(await getTenant('adresume', token));
    expectUnauthorized(await createWith(`enr1.${'x'.repeat(32)}`, 'adresume'));
    const resumed = await createWith(failed.body.tenant.api_token, 'adresume');
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.outcome).toBe('resumed');
    // Its tenant ready, there is nothing to resume: the spent token is refused as any other.
    expectUnauthorized(await createWith(token, 'adresume'));
  });

  it('presented for another name answers 401 and is spent', async () => {
    const token = await enroll('adc');
    expectUnauthorized(await createWith(token, 'adother'));
    expect((await getTenant('adother')).status).toBe(404);
    expectUnauthorized(await createWith(token, 'adc'));
    expect((await getTenant('adc')).status).toBe(404);
  });

  it('presented for a registered tenant of another name answers 401', async () => {
    const token = await enroll('adf');
    expectUnauthorized(await createWith(token, 'adreg'));
    expectUnauthorized(await createWith(token, 'adf'));
  });

  it('stops working when the name is admitted again', async () => {
    const first = await enroll('add');
    const second = await enroll('add');
    expect(second).not.toBe(first);
    expectUnauthorized(await createWith(first, 'add'));
    const r = await createWith(second, 'add');
    expect(r.status, r.text).toBe(201);
  });

  it('stops working when the admission is withdrawn', async () => {
    const token = await enroll('ade');
    const del = await withdraw('ade');
    expect(del.status, del.text).toBe(204);
    expect(del.body).toBeUndefined();
    expectUnauthorized(await createWith(token, 'ade'));
    const again = await withdraw('ade');
    expect(again.status, again.text).toBe(404);
    expect(again.body).toEqual({ error: 'no unused admission' });
  });

  it('has no unused admission to withdraw for a name never admitted or already enrolled', async () => {
    for (const name of ['adnever', 'adb']) {
      const r = await withdraw(name);
      expect(r.status, r.text).toBe(404);
      expect(r.body).toEqual({ error: 'no unused admission' });
    }
  });

  it('expires', async () => {
    const token = await enroll('adg');
    await site.registry.sql`update admissions set expires_at = now() - interval '1 minute' where name = 'adg'`;
    expectUnauthorized(await createWith(token, 'adg'));
    expect((await getTenant('adg')).status).toBe(404);
    // An expired admission is not an unused one.
    expect((await withdraw('adg')).status).toBe(404);
  });
});
