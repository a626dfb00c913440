import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectStatus } from '../support/answer.js';

/**
 * Runs over REST (issue 47 item 2): a tenant's runs and its objects', from Temporal's visibility
 * store, with the failed step of a failed create and the backend's answer the registry keeps;
 * paginated; a tenant sees its own and no other's, the operator every tenant's at /v1/runs.
 */
let site: TestSite;
let acmeToken: string;

const list = (path: string, token?: string | null) => site.call('GET', path, token === undefined ? {} : { token });

type Answer = Awaited<ReturnType<typeof list>>;

/** The first answer `ok` accepts, or the last one once the bound is past (visibility lags a little). */
async function until(path: string, ok: (r: Answer) => boolean, timeoutMs = 20_000): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await list(path);
    if (ok(r) || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  site = await startTestSite({ backendTimeoutMs: 1500 });
  const acme = await site.call('POST', '/v1/tenants', { body: { name: 'acme' } });
  expect(acme.status, acme.text).toBe(201);
  acmeToken = acme.body.api_token;
  expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'other' } }), 201, site.logs);
  for (const name of ['www', 'api', 'db'])
    expectStatus(await site.call('PUT', `/v1/tenants/acme/records/${name}`, { body: { address: '10.128.1.60' } }), 200, site.logs);
  // A create that fails at its dns step and parks, waiting for its repeat.
  site.backends.pdns.faults.add({ failNext: 1000, status: 500, match: '/zones' });
  try {
    const failed = await site.call('POST', '/v1/tenants', { body: { name: 'broken' } });
    expect(failed.status, failed.text).toBe(502);
  } finally {
    site.backends.pdns.faults.clear();
  }
});
afterAll(async () => {
  await site?.stop();
});

describe('GET /v1/tenants/{t}/runs', () => {
  it("lists the tenant's runs and its objects' newest first, each with its operation, object, status and outcome", async () => {
    const r = await until('/v1/tenants/acme/runs', (got) => got.body.runs?.length >= 4);
    expect(r.status, r.text).toBe(200);
    const ids = r.body.runs.map((x: { id: string }) => x.id);
    expect(ids).toEqual(expect.arrayContaining(['tenant-create/acme', 'record-put/acme/www', 'record-put/acme/api', 'record-put/acme/db']));
    expect(ids[ids.length - 1]).toBe('tenant-create/acme');
    const create = r.body.runs.find((x: { id: string }) => x.id === 'tenant-create/acme');
    expect(create).toMatchObject({ operation: 'tenant-create', tenant: 'acme', object: 'tenants/acme', outcome: 'created', failed_steps: [] });
    expect(['running', 'completed']).toContain(create.status);
    expect(Date.parse(create.started_at)).toBeGreaterThan(0);
    const record = r.body.runs.find((x: { id: string }) => x.id === 'record-put/acme/www');
    expect(record).toMatchObject({ operation: 'record-put', object: 'tenants/acme/records/www' });
    for (const run of r.body.runs) expect(run.tenant).toBe('acme');
  });

  it('shows the failed step of a failed create, parked, with the backend that answered', async () => {
    const r = await until('/v1/runs?tenant=broken', (got) => got.body.runs?.[0]?.status === 'parked');
    expect(r.status, r.text).toBe(200);
    expect(r.body.runs[0]).toMatchObject({
      id: 'tenant-create/broken',
      status: 'parked',
      outcome: 'failed',
      step: 'dns',
      failed_steps: ['dns'],
      failure: { step: 'dns', backend: 'powerdns', status: 500 },
    });
    // `localhost` is PowerDNS's server id in the answer's path; no backend address is.
    expect(JSON.stringify(r.body)).not.toMatch(/127\.0\.0\.1|https?:\/\//);
    const parked = await list('/v1/runs?status=parked');
    expect(parked.body.runs.map((x: { id: string }) => x.id)).toContain('tenant-create/broken');
    expect(parked.body.runs.every((x: { status: string }) => x.status === 'parked')).toBe(true);
  });

  it('pages with next_page until the last page, each run once', async () => {
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const r = await list(`/v1/tenants/acme/runs?limit=2${page ? `&page=${page}` : ''}`);
      expect(r.status, r.text).toBe(200);
      expect(r.body.runs.length).toBeLessThanOrEqual(2);
      seen.push(...r.body.runs.map((x: { id: string; run_id: string }) => `${x.id} ${x.run_id}`));
      page = r.body.next_page;
      pages++;
    } while (page && pages < 10);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(4);
  });

  it('filters by operation', async () => {
    const r = await list('/v1/tenants/acme/runs?operation=record-put');
    expect(r.status).toBe(200);
    expect(r.body.runs.length).toBe(3);
    expect(r.body.runs.every((x: { operation: string }) => x.operation === 'record-put')).toBe(true);
  });

  it("a tenant's token lists its own runs and is refused another tenant's and the site's", async () => {
    expect((await list('/v1/tenants/acme/runs', acmeToken)).status).toBe(200);
    // Another tenant is not found to a tenant's token, as on every tenant route.
    expect((await list('/v1/tenants/other/runs', acmeToken)).status).toBe(404);
    expect((await list('/v1/runs', acmeToken)).status).toBe(403);
    expect((await list('/v1/tenants/acme/runs', null)).status).toBe(401);
  });

  it('answers 400 with the reason for a bad filter or page, 404 for an unknown tenant', async () => {
    const cases: [string, RegExp][] = [
      ['/v1/tenants/acme/runs?limit=0', /limit/],
      ['/v1/tenants/acme/runs?limit=101', /limit/],
      ['/v1/tenants/acme/runs?operation=drop-table', /operation/],
      ["/v1/tenants/acme/runs?status=x'%20OR%20'1'='1", /status/],
      ['/v1/tenants/acme/runs?page=not%20a%20token', /page/],
      ['/v1/tenants/acme/runs?page=AAAA', /page/],
      ["/v1/runs?tenant=a'%20OR%20TenantName%20!=%20'", /tenant/],
    ];
    for (const [path, reason] of cases) {
      const r = await list(path);
      expect([path, r.status], r.text).toEqual([path, 400]);
      expect(r.body.error).toMatch(reason);
    }
    expect((await list('/v1/tenants/nobody/runs')).status).toBe(404);
  });

  it("the operator lists every tenant's runs at /v1/runs, and one tenant's with tenant=", async () => {
    const all = await list('/v1/runs?limit=100');
    expect(all.status).toBe(200);
    const tenants = new Set(all.body.runs.map((x: { tenant?: string }) => x.tenant));
    for (const t of ['acme', 'other', 'broken']) expect(tenants).toContain(t);
    const other = await list('/v1/runs?tenant=other');
    expect(other.body.runs.map((x: { id: string }) => x.id)).toEqual(['tenant-create/other']);
  });
});
