import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOneAt, NONE, tenantObjects } from '../support/backend-objects.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { createTenant } from '../support/lab-calls.js';

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site?.stop();
});

describe('a tenant at a site with a log store and dashboards', () => {
  let t: any;
  beforeAll(async () => {
    t = await createTenant(site, 'full');
  });

  it('runs the log-store and dashboards steps after the core ones', () => {
    expect(t.steps.map((s: any) => s.name)).toEqual(['dns', 'resolver', 'state', 'network', 'log-store', 'dashboards']);
    expect(t.steps.every((s: any) => s.ok)).toBe(true);
  });

  it('answers the log object with both tokens and the project header', () => {
    expect(t.log).toMatchObject({ account_id: 1001, endpoint: site.backends.env.SITE_LOG_ENDPOINT, select_header: 'X-Log-Project' });
    expect(t.log.ingest_token).toBeTruthy();
    expect(t.log.read_token).toBeTruthy();
    expect(t.log.ingest_token).not.toBe(t.log.read_token);
  });

  it('answers the dashboard login', () => {
    expect(t.dashboard).toMatchObject({ url: site.backends.env.SITE_GRAFANA_URL, username: 'tenant-full' });
    expect(typeof t.dashboard.org_id).toBe('number');
    expect(t.dashboard.password).toBeTruthy();
  });

  it('the ingest token writes project 0 and the read token reads it, with the project header', async () => {
    const endpoint = t.log.endpoint;
    const line = JSON.stringify({ _msg: 'hello from full', _time: new Date().toISOString() });
    const w = await fetch(`${endpoint}/insert/jsonline`, { method: 'POST', headers: { authorization: `Bearer ${t.log.ingest_token}` }, body: line });
    expect(w.status).toBeLessThan(300);
    const q = (headers: Record<string, string>) =>
      fetch(`${endpoint}/select/logsql/query?query=*`, { headers: { authorization: `Bearer ${t.log.read_token}`, ...headers } });
    expect(await (await q({})).text()).toContain('hello from full');
    expect(await (await q({ 'X-Log-Project': `${t.log.account_id}-0` })).text()).toContain('hello from full');
    expect((await q({ 'X-Log-Project': `${t.log.account_id + 1}-0` })).status).toBe(403);
    const ingestReads = await fetch(`${endpoint}/select/logsql/query?query=*`, { headers: { authorization: `Bearer ${t.log.ingest_token}` } });
    expect(ingestReads.status).toBe(401);
  });

  it('reads carry neither log token nor the dashboard password', async () => {
    const r = await site.call('GET', '/v1/tenants/full');
    expect(r.body.log.ingest_token).toBeUndefined();
    expect(r.body.log.read_token).toBeUndefined();
    expect(r.body.dashboard.password).toBeUndefined();
    expect(r.body.dashboard.org_id).toBe(t.dashboard.org_id);
  });

  it('reconcile answers the log tokens and the dashboard password, and no other secret', async () => {
    const r = await site.call('POST', '/v1/tenants/full/reconcile');
    expect(r.status, r.text).toBe(200);
    expect(r.body.log.ingest_token).toBe(t.log.ingest_token);
    expect(r.body.log.read_token).toBe(t.log.read_token);
    expect(r.body.dashboard.password).toBe(t.dashboard.password);
    expect(r.body.dns.tsig_secret).toBeUndefined();
    expect(r.body.state.secret_key).toBeUndefined();
    expect(r.body.api_token).toBeUndefined();
  });

  it('delete removes the login and renames the emptied organization', async () => {
    site.backends.proxmox.removeTenantNetwork('full');
    const r = await site.call('DELETE', '/v1/tenants/full');
    expect(r.status, r.text).toBe(204);
    const orgs = [...site.backends.grafana!.state.orgs.values()].map((o: any) => o.name);
    expect(orgs).toContain(`deleted-full-${t.dashboard.org_id}`);
    expect(orgs).not.toContain('full');
  });
});

describe('delete on the full lab', () => {
  it('leaves no object of any kind: routes, forwards, reservations, broker accounts, Wi-Fi keys and their MACs', async () => {
    const c = await site.call('POST', '/v1/tenants', { body: { name: 'every' } });
    expect(c.status, c.text).toBe(201);
    const token = c.body.api_token;
    const as = (method: string, path: string, body?: unknown) => site.call(method, `/v1/tenants/every${path}`, { token, ...(body ? { body } : {}) });
    expect((await as('POST', '/devices', { name: 'cam', trust_class: 'sensor', mac: '02:aa:00:00:00:01' })).status).toBe(201);
    const address = await as('POST', '/devices/cam/address', {});
    expect(address.status, address.text).toBe(201);
    expect((await as('POST', '/broker-accounts', { name: 'cam', publish: ['cam/#'], subscribe: [] })).status).toBe(201);
    const key = await as('POST', '/wifi-keys', { name: 'cams', trust_class: 'sensor' });
    expect(key.status, key.text).toBe(201);
    const all = { ...allOneAt(site), reservations: 1, brokerAccounts: 1 };
    // The census sees every kind on this lab: nothing counted 0 = 0 because its backend is absent.
    expect(Object.values(all).every((n) => n === 1)).toBe(true);
    expect(await tenantObjects(site, 'every', c.body.index)).toEqual(all);
    const entries = () => site.backends.unifi!.wlan('lab-devices')!.private_preshared_keys.filter((e) => e.password === key.body.psk);
    expect(entries()).toHaveLength(1);

    site.backends.proxmox.removeTenantNetwork('every');
    const r = await site.call('DELETE', '/v1/tenants/every', { token });
    expect(r.status, r.text).toBe(204);
    expect(await tenantObjects(site, 'every', c.body.index)).toEqual(NONE);
    expect(entries()).toHaveLength(0);
    expect(await site.registry.sql`select 1 from wifi_keys where tenant = 'every'`).toHaveLength(0);
  });
});
