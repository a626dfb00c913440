import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * The admission's Wi-Fi key at a site with a tenant developer network (the lab's lab-dev SSID on
 * tenant-dev, VLAN 41), checked on the UniFi simulator's entries and its association check.
 */
let site: TestSite;

const admit = (body: unknown) => site.call('POST', '/v1/admissions', { body });
const unifi = () => site.backends.unifi!;
const devEntries = () => unifi().wlan('lab-dev')!.private_preshared_keys;
const entryOf = (psk: string) => devEntries().find((e) => e.password === psk);
const devNetwork = () => unifi().network('tenant-dev')!._id;

async function associate(psk: string, mac: string, ssid = 'lab-dev'): Promise<number> {
  const res = await fetch(`${unifi().server.url}/__lab/associate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ssid, psk, mac }),
  });
  return res.status;
}

beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site?.stop();
});

describe('POST /v1/admissions at a site with a tenant developer network', () => {
  it('answers a Wi-Fi key on the developer network, usable by any client when no MAC was given', async () => {
    const r = await admit({ name: 'dev1' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.wifi).toEqual({ ssid: 'lab-dev', psk: expect.stringMatching(/^[A-Za-z2-9]{24}$/) });
    expect(entryOf(r.body.wifi.psk)).toEqual({ password: r.body.wifi.psk, networkconf_id: devNetwork() });
    expect(await associate(r.body.wifi.psk, '02:00:00:00:01:01')).toBe(200);
    expect(await associate(r.body.wifi.psk, '02:00:00:00:01:02')).toBe(200);
    expect(await associate(r.body.wifi.psk, '02:00:00:00:01:01', 'lab-devices')).toBe(403);
  });

  it('refuses a MAC with 400 and issues nothing: the UniFi controller cannot bind a key to one client', async () => {
    const entries = devEntries().length;
    const r = await admit({ name: 'dev2', mac: 'AA-BB-CC-DD-EE-02' });
    expect(r.status, r.text).toBe(400);
    expect(r.body).toEqual({ error: "mac: this site's wireless controller cannot bind a Wi-Fi key to one client; admit without mac" });
    // No key on the controller, no admission to withdraw, no token that would create the tenant.
    expect(devEntries()).toHaveLength(entries);
    expect((await site.call('DELETE', '/v1/admissions/dev2')).status).toBe(404);
    const again = await admit({ name: 'dev2' });
    expect(again.status, again.text).toBe(201);
    expect(again.body.wifi).toEqual({ ssid: 'lab-dev', psk: expect.any(String) });
  });

  it('re-admitting a name issues a new key and the earlier one stops working', async () => {
    const first = await admit({ name: 'dev3' });
    const second = await admit({ name: 'dev3' });
    expect(second.status, second.text).toBe(201);
    expect(second.body.wifi.psk).not.toBe(first.body.wifi.psk);
    expect(entryOf(first.body.wifi.psk)).toBeUndefined();
    expect(await associate(first.body.wifi.psk, 'aa:bb:cc:dd:ee:04')).toBe(403);
    expect(entryOf(second.body.wifi.psk)).toEqual({ password: second.body.wifi.psk, networkconf_id: devNetwork() });
    expect(await associate(second.body.wifi.psk, 'aa:bb:cc:dd:ee:04')).toBe(200);
  });

  it('502 when the key did not land on the controller: no token is issued; the repeat admits', async () => {
    unifi().faults.add({ failNext: 10, method: 'PUT', match: 'wlanconf' });
    const r = await admit({ name: 'dev4' });
    unifi().faults.clear();
    expect(r.status, r.text).toBe(502);
    expect(r.body).toEqual({ error: 'backend step "wifi" failed' });
    const again = await admit({ name: 'dev4' });
    expect(again.status, again.text).toBe(201);
    expect(await associate(again.body.wifi.psk, '02:00:00:00:04:01')).toBe(200);
  });
});

describe('DELETE /v1/admissions/{t}', () => {
  it("revokes the unused admission's key; a second delete is 404", async () => {
    const r = await admit({ name: 'dev5' });
    expect(await associate(r.body.wifi.psk, 'aa:bb:cc:dd:ee:05')).toBe(200);
    const del = await site.call('DELETE', '/v1/admissions/dev5');
    expect(del.status, del.text).toBe(204);
    expect(entryOf(r.body.wifi.psk)).toBeUndefined();
    expect(await associate(r.body.wifi.psk, 'aa:bb:cc:dd:ee:05')).toBe(403);
    const again = await site.call('DELETE', '/v1/admissions/dev5');
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'no unused admission' });
  });

  it('502 when the revoke did not land; the admission stays unused and the repeat revokes', async () => {
    const r = await admit({ name: 'dev6' });
    unifi().faults.add({ failNext: 10, method: 'PUT', match: 'wlanconf' });
    const del = await site.call('DELETE', '/v1/admissions/dev6');
    unifi().faults.clear();
    expect(del.status, del.text).toBe(502);
    expect(del.body).toEqual({ error: 'backend step "wifi" failed' });
    expect(await associate(r.body.wifi.psk, '02:00:00:00:06:01')).toBe(200);
    expect((await site.call('DELETE', '/v1/admissions/dev6')).status).toBe(204);
    expect(await associate(r.body.wifi.psk, '02:00:00:00:06:01')).toBe(403);
  });
});

describe('the admission key of the enrolled tenant', () => {
  let psk: string;
  let token: string;
  beforeAll(async () => {
    const a = await admit({ name: 'dev7' });
    expect(a.status, a.text).toBe(201);
    psk = a.body.wifi.psk;
    const t = await site.call('POST', '/v1/tenants', { token: a.body.enrollment_token, body: { name: 'dev7' } });
    expect(t.status, t.text).toBe(201);
    token = t.body.api_token;
  });

  it("is the tenant's key named `admission`, read without its psk", async () => {
    const r = await site.call('GET', '/v1/tenants/dev7/wifi-keys/admission', { token });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      name: 'admission',
      trust_class: 'developer',
      ssid: 'lab-dev',
      secrets_stored: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const list = await site.call('GET', '/v1/tenants/dev7/wifi-keys', { token });
    expect(list.body.wifi_keys.map((k: any) => k.name)).toEqual(['admission']);
    expect(list.text).not.toContain(psk);
    expect(await associate(psk, 'aa:bb:cc:dd:ee:07')).toBe(200);
  });

  it('the name admission cannot be issued through the keys route', async () => {
    const r = await site.call('POST', '/v1/tenants/dev7/wifi-keys', { token, body: { name: 'admission', trust_class: 'sensor' } });
    expect(r.status, r.text).toBe(400);
    expect(entryOf(psk)).toBeDefined();
  });

  it('tenant delete revokes every key, admission included', async () => {
    const other = await site.call('POST', '/v1/tenants/dev7/wifi-keys', { token, body: { name: 'things', trust_class: 'sensor' } });
    expect(other.status, other.text).toBe(201);
    expect(await associate(other.body.psk, '02:00:00:00:07:01', 'lab-devices')).toBe(200);
    site.backends.proxmox.removeTenantNetwork('dev7');
    const del = await site.call('DELETE', '/v1/tenants/dev7', { token });
    expect(del.status, del.text).toBe(204);
    expect(entryOf(psk)).toBeUndefined();
    expect(await associate(psk, 'aa:bb:cc:dd:ee:07')).toBe(403);
    expect(await associate(other.body.psk, '02:00:00:00:07:01', 'lab-devices')).toBe(403);
    const rows = await site.registry.sql`select name from wifi_keys where tenant = 'dev7'`;
    expect(rows).toHaveLength(0);
  });
});

describe('secrets', () => {
  it('no admission psk reaches the service log', async () => {
    const psks = devEntries().map((e) => e.password);
    expect(psks.length).toBeGreaterThan(0);
    for (const psk of psks) expect(site.logs.filter((l) => l.includes(psk))).toEqual([]);
  });
});
