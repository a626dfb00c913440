import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOneAt, NONE, tenantObjects } from '../support/backend-objects.js';
import { dig, nsupdate } from '../support/pdns.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { createTenant } from '../support/lab-calls.js';
import { expectStatus } from '../support/answer.js';

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite({ minimal: true });
});
afterAll(async () => {
  await site?.stop();
});

const SECRET_FIELDS = ['api_token'];

function pdnsZones(): Promise<string[]> {
  return fetch(`${site.backends.pdns.apiUrl}/servers/localhost/zones`, { headers: { 'X-API-Key': site.backends.pdns.apiKey } })
    .then((r) => r.json() as Promise<{ name: string }[]>)
    .then((zs) => zs.map((z) => z.name));
}

describe('creating a tenant', () => {
  let created: any;
  beforeAll(async () => {
    created = await createTenant(site, 'acme');
  });

  it('answers 201 created with the tenant and every secret, once', () => {
    expect(created).toMatchObject({ name: 'acme', index: 1, status: 'ready', outcome: 'created', secrets_stored: true });
    expect(created.dns.tsig_secret).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(created.state.secret_key).toHaveLength(40);
    expect(created.api_token).toMatch(/^dvt1\.acme\./);
    expect(created.steps.map((s: any) => [s.name, s.ok])).toEqual([
      ['dns', true],
      ['resolver', true],
      ['state', true],
      ['network', true],
    ]);
    // A site with no log store and no dashboards: no endpoint, an empty dashboard.
    expect(created.log).toEqual({ account_id: 1001 });
    expect(created.dashboard).toEqual({});
  });

  it('reads never carry a secret or an outcome', async () => {
    const r = await site.call('GET', '/v1/tenants/acme');
    expect(r.status).toBe(200);
    expect(r.body.outcome).toBeUndefined();
    expect(r.body.dns.tsig_secret).toBeUndefined();
    expect(r.body.state.secret_key).toBeUndefined();
    for (const f of SECRET_FIELDS) expect(r.body[f]).toBeUndefined();
    expect(r.text).not.toContain(created.dns.tsig_secret);
    expect(r.text).not.toContain(created.state.secret_key);
  });

  it('builds the zones: the issued key updates the zone, dig resolves it, a wrong key is refused', async () => {
    const port = site.backends.pdns.dnsPort;
    const key = `hmac-sha256:${created.dns.tsig_key_name}:${created.dns.tsig_secret}`;
    const ok = await nsupdate(port, created.dns.zone, key, [`update add web.${created.dns.zone}. 300 A 10.128.1.50`]);
    expect(ok.ok, ok.output).toBe(true);
    expect((await dig(port, `web.${created.dns.zone}`)).answers).toEqual(['10.128.1.50']);
    const wrong = await nsupdate(port, created.dns.zone, `hmac-sha256:${created.dns.tsig_key_name}:${Buffer.alloc(32, 7).toString('base64')}`, [
      `update add evil.${created.dns.zone}. 300 A 10.0.0.66`,
    ]);
    expect(wrong.ok).toBe(false);
    expect((await dig(port, `evil.${created.dns.zone}`)).status).toBe('NXDOMAIN');
    expect(await pdnsZones()).toEqual(expect.arrayContaining([`${created.dns.zone}.`, `${created.dns.reverse_zone}.`]));
  });

  it('forwards both zones on the site resolver: dig through the recursor resolves the tenant name', async () => {
    const r = await dig(site.backends.recursor.dnsPort, `web.${created.dns.zone}`);
    expect(r.answers).toEqual(['10.128.1.50']);
  });

  it('builds the state-store user and the fabric network', () => {
    expect(site.backends.minio.state.users.get('acme')?.policies).toEqual(['tenant-acme']);
    const cfg = site.backends.proxmox.state.sdn.config;
    expect(cfg.zones.get('acme')).toMatchObject({ type: 'evpn', controller: 'evpnctl', 'vrf-vxlan': 10001 });
    expect([...cfg.vnets.values()].filter((v) => v.zone === 'acme')).toHaveLength(1);
  });

  it('a repeated create without secrets is 409 and changes nothing', async () => {
    const r = await site.call('POST', '/v1/tenants', { body: { name: 'acme' } });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      error: `tenant already exists; to reconcile it send tsig_secret, state_secret and api_token, or have the operator call POST /v1/tenants/acme/reconcile`,
    });
    const again = await site.call('GET', '/v1/tenants/acme', { token: created.api_token });
    expect(again.status).toBe(200);
  });

  it('a repeated create with the three secrets reconciles (200) and keeps the identity', async () => {
    const r = await site.call('POST', '/v1/tenants', {
      body: { name: 'acme', tsig_secret: created.dns.tsig_secret, state_secret: created.state.secret_key, api_token: created.api_token },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ outcome: 'reconciled', index: 1, status: 'ready' });
    expect(r.body.dns.tsig_secret).toBe(created.dns.tsig_secret);
    expect(r.body.api_token).toBe(created.api_token);
  });

  it('reconcile restores an object deleted behind the service, answering no secret but log and dashboard ones', async () => {
    await fetch(`${site.backends.pdns.apiUrl}/servers/localhost/zones/${created.dns.reverse_zone}.`, {
      method: 'DELETE',
      headers: { 'X-API-Key': site.backends.pdns.apiKey },
    });
    site.backends.minio.state.users.delete('acme');
    expect(await pdnsZones()).not.toContain(`${created.dns.reverse_zone}.`);
    const r = await site.call('POST', '/v1/tenants/acme/reconcile');
    expect(r.status, r.text).toBe(200);
    expect(r.body.outcome).toBe('reconciled');
    expect(r.body.dns.tsig_secret).toBeUndefined();
    expect(r.body.state.secret_key).toBeUndefined();
    expect(r.body.api_token).toBeUndefined();
    expect(await pdnsZones()).toContain(`${created.dns.reverse_zone}.`);
    expect(site.backends.minio.state.users.has('acme')).toBe(true);
  });

  it('reconcile of an unknown tenant is 404', async () => {
    const r = await site.call('POST', '/v1/tenants/nobody/reconcile');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'tenant not found' });
  });

  it('lists the tenant for the egress agent', async () => {
    const r = await site.call('GET', '/v1/fabric/egress', { token: site.egressToken });
    expect(r.status).toBe(200);
    expect(r.body.vrfs).toContainEqual({ tenant: 'acme', vrf: 'vrf_acme' });
  });

  it('records the run in Temporal under its workflow id with the tenant search attribute', async () => {
    const client = site.client;
    const desc = await client.workflow.getHandle('tenant-create/acme').describe();
    expect(desc.type).toBe('tenantCreate');
    expect(desc.searchAttributes.TenantName).toEqual(['acme']);
    expect(desc.searchAttributes.Operation).toEqual(['tenant-create']);
  });
});

describe('deleting a tenant', () => {
  it('is refused (409) while the fabric carries its zone, then removes everything but the network', async () => {
    const c = await site.call('POST', '/v1/tenants', { body: { name: 'gone' } });
    expect(c.status, c.text).toBe(201);
    const zone = c.body.dns.zone;
    expect(await tenantObjects(site, 'gone', c.body.index)).toEqual(allOneAt(site));
    const refused = await site.call('DELETE', '/v1/tenants/gone');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'the fabric still carries the tenant zone; remove it in the fabric first' });
    expect((await site.call('GET', '/v1/tenants/gone')).body.status).toBe('ready');

    site.backends.proxmox.removeTenantNetwork('gone');
    const r = await site.call('DELETE', '/v1/tenants/gone', { token: c.body.api_token });
    expect(r.status, r.text).toBe(204);
    expect(r.text).toBe('');
    expectStatus(await site.call('GET', '/v1/tenants/gone'), 404, site.logs);
    expect(await pdnsZones()).not.toContain(`${zone}.`);
    expect(site.backends.minio.state.users.has('gone')).toBe(false);
    expect((await site.call('GET', '/v1/fabric/egress')).body.vrfs).not.toContainEqual({ tenant: 'gone', vrf: 'vrf_gone' });
    // Every object of every kind is gone, the resolver's forwards and the log routes included;
    // the fabric network is the operator's (removed above).
    expect(await tenantObjects(site, 'gone', c.body.index)).toEqual(NONE);
  });

  it('of an unknown tenant is 404', async () => {
    const r = await site.call('DELETE', '/v1/tenants/nobody');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'tenant not found' });
  });

  it('then a create of the same name starts again (a new run of the same workflow id)', async () => {
    const r = await site.call('POST', '/v1/tenants', { body: { name: 'gone' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.outcome).toBe('created');
  });
});

describe('short tenant names', () => {
  it('two letters are served: the state-store user is prefixed because MinIO needs three characters', async () => {
    const r = await site.call('POST', '/v1/tenants', { body: { name: 'st' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.state).toMatchObject({ access_key: 'tenant-st', key_prefix: 'st/' });
    expect(site.backends.minio.state.users.get('tenant-st')?.policies).toEqual(['tenant-st']);
  });

  it('one letter is refused with the reason before anything is built (Proxmox zone ids need two)', async () => {
    const r = await site.call('POST', '/v1/tenants', { body: { name: 's' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'name: a tenant name needs at least two characters at this site (it is the fabric zone id)' });
    expectStatus(await site.call('GET', '/v1/tenants/s'), 404, site.logs);
  });
});
