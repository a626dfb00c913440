import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';
import { associateAt, wifiKeyAnswer } from '../support/lab-calls.js';
import { expectStatus } from '../support/answer.js';

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

const associate = async (psk: string, mac: string, ssid = 'lab-dev'): Promise<number> => (await associateAt(site, ssid, psk, mac)).status;

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

  it('refuses a MAC with 400 and issues nothing at a site with no MAC-filtered developer WLAN', async () => {
    const developer = site.config.site!.wifi!.developer!;
    const bound = developer.boundSsid;
    // The same site with the setting unset, as the API reads it (the in-process API shares this config).
    developer.boundSsid = undefined;
    try {
      const entries = devEntries().length;
      const r = await admit({ name: 'dev2', mac: 'AA-BB-CC-DD-EE-02' });
      expect(r.status, r.text).toBe(400);
      expect(r.body).toEqual({ error: 'mac: this site has no MAC-filtered developer WLAN to bind a Wi-Fi key to one client; admit without mac' });
      // No key on the controller, no admission to withdraw, no token that would create the tenant.
      expect(devEntries()).toHaveLength(entries);
      expectStatus(await site.call('DELETE', '/v1/admissions/dev2'), 404, site.logs);
    } finally {
      developer.boundSsid = bound;
    }
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
    expect(r.body).toMatchObject({ error: 'backend step "wifi" failed', failure: { step: 'wifi' } });
    const again = await admit({ name: 'dev4' });
    expect(again.status, again.text).toBe(201);
    expect(await associate(again.body.wifi.psk, '02:00:00:00:04:01')).toBe(200);
  });
});

describe('an admission bound to one computer (mac): the MAC-filtered developer WLAN', () => {
  const bound = () => unifi().wlan('lab-dev-bound')!;
  const boundEntryOf = (psk: string) => bound().private_preshared_keys.find((e) => e.password === psk);
  const allowed = () => bound().mac_filter_list;

  it('answers 201 with wifi.mac for each accepted form; the key works from that computer only', async () => {
    const forms = [
      ['devm1', 'AA-BB-CC-DD-EE-11', 'aa:bb:cc:dd:ee:11'],
      ['devm2', 'aabbccddee12', 'aa:bb:cc:dd:ee:12'],
      ['devm3', 'aa:bb:cc:dd:ee:13', 'aa:bb:cc:dd:ee:13'],
    ] as const;
    const psks: string[] = [];
    for (const [name, mac, canonical] of forms) {
      const r = await admit({ name, mac });
      expect(r.status, r.text).toBe(201);
      expect(r.body.wifi).toEqual({ ssid: 'lab-dev-bound', psk: expect.stringMatching(/^[A-Za-z2-9]{24}$/), mac: canonical });
      expect(boundEntryOf(r.body.wifi.psk)).toEqual({ password: r.body.wifi.psk, networkconf_id: devNetwork() });
      expect(await associate(r.body.wifi.psk, canonical, 'lab-dev-bound')).toBe(200);
      // Another computer with the same key is kept out by the WLAN's allow-list.
      expect(await associate(r.body.wifi.psk, '02:00:00:00:0b:01', 'lab-dev-bound')).toBe(403);
      // The key is not on the unbound developer WLAN, where any computer could use it.
      expect(entryOf(r.body.wifi.psk)).toBeUndefined();
      expect(await associate(r.body.wifi.psk, canonical)).toBe(403);
      psks.push(r.body.wifi.psk);
    }
    expect(bound().mac_filter_enabled).toBe(true);
    expect(bound().mac_filter_policy).toBe('allow');
    expect(allowed()).toEqual(expect.arrayContaining(forms.map(([, , m]) => m)));
    // The admission remembers the binding; the key is the name's `admission` key, bound.
    const rows = await site.registry.sql`select tenant, ssid, mac from wifi_keys where tenant in ('devm1', 'devm2', 'devm3') order by tenant`;
    expect(rows.map((r) => [r.tenant, r.ssid, r.mac])).toEqual(forms.map(([n, , m]) => [n, 'lab-dev-bound', m]));
  });

  it("concurrent bound admissions of several names all stand: no MAC or key lost to another's write", async () => {
    const names = ['devc1', 'devc2', 'devc3', 'devc4', 'devc5', 'devc6'];
    const mac = (i: number) => `aa:bb:cc:dd:ef:0${i}`;
    const windows: [number, number][] = [];
    const answers = await Promise.all(
      names.map(async (name, i) => {
        const start = Date.now();
        const r = await admit({ name, mac: mac(i) });
        windows.push([start, Date.now()]);
        return r;
      }),
    );
    // The calls were in flight together: the last to start began before the first to end finished.
    expect(Math.max(...windows.map(([a]) => a))).toBeLessThan(Math.min(...windows.map(([, b]) => b)));
    for (const [i, r] of answers.entries()) {
      expect(r.status, r.text).toBe(201);
      expect(await associate(r.body.wifi.psk, mac(i), 'lab-dev-bound')).toBe(200);
    }
    expect(allowed()).toEqual(expect.arrayContaining(names.map((_, i) => mac(i))));
  });

  it('an unbound admission still works on the developer WLAN beside the bound ones', async () => {
    const r = await admit({ name: 'devm4' });
    expect(r.status, r.text).toBe(201);
    expect(await associate(r.body.wifi.psk, '02:00:00:00:0b:04')).toBe(200);
    expect(await associate(r.body.wifi.psk, '02:00:00:00:0b:04', 'lab-dev-bound')).toBe(403);
  });

  it('re-admitting without mac moves the key to the developer WLAN: the bound key and its MAC go', async () => {
    const first = await admit({ name: 'devm5', mac: 'aa:bb:cc:dd:ee:15' });
    expect(allowed()).toContain('aa:bb:cc:dd:ee:15');
    const second = await admit({ name: 'devm5' });
    expect(second.status, second.text).toBe(201);
    expect(second.body.wifi).toEqual({ ssid: 'lab-dev', psk: expect.any(String) });
    expect(boundEntryOf(first.body.wifi.psk)).toBeUndefined();
    expect(allowed()).not.toContain('aa:bb:cc:dd:ee:15');
    expect(await associate(first.body.wifi.psk, 'aa:bb:cc:dd:ee:15', 'lab-dev-bound')).toBe(403);
    expect(await associate(second.body.wifi.psk, 'aa:bb:cc:dd:ee:15')).toBe(200);
    // And back, to another computer: the unbound key goes, the new MAC is listed.
    const third = await admit({ name: 'devm5', mac: 'aa:bb:cc:dd:ee:16' });
    expect(third.body.wifi).toEqual({ ssid: 'lab-dev-bound', psk: expect.any(String), mac: 'aa:bb:cc:dd:ee:16' });
    expect(entryOf(second.body.wifi.psk)).toBeUndefined();
    expect(allowed()).toContain('aa:bb:cc:dd:ee:16');
    // Re-admitted to a third computer: the second one's MAC leaves the list in the same write.
    const fourth = await admit({ name: 'devm5', mac: 'aa:bb:cc:dd:ee:17' });
    expect(fourth.status, fourth.text).toBe(201);
    expect(allowed()).not.toContain('aa:bb:cc:dd:ee:16');
    expect(await associate(third.body.wifi.psk, 'aa:bb:cc:dd:ee:16', 'lab-dev-bound')).toBe(403);
    expect(await associate(fourth.body.wifi.psk, 'aa:bb:cc:dd:ee:17', 'lab-dev-bound')).toBe(200);
  });

  it('withdrawing the admission takes the key and its MAC off the WLAN', async () => {
    const r = await admit({ name: 'devm6', mac: 'aa:bb:cc:dd:ee:18' });
    expectStatus(await site.call('DELETE', '/v1/admissions/devm6'), 204, site.logs);
    expect(boundEntryOf(r.body.wifi.psk)).toBeUndefined();
    expect(allowed()).not.toContain('aa:bb:cc:dd:ee:18');
    expect(await associate(r.body.wifi.psk, 'aa:bb:cc:dd:ee:18', 'lab-dev-bound')).toBe(403);
  });

  it("the enrolled tenant's delete takes its bound key and MAC off the WLAN", async () => {
    const a = await admit({ name: 'devm7', mac: 'aa:bb:cc:dd:ee:19' });
    const t = await site.call('POST', '/v1/tenants', { token: a.body.enrollment_token, body: { name: 'devm7' } });
    expect(t.status, t.text).toBe(201);
    const key = await site.call('GET', '/v1/tenants/devm7/wifi-keys/admission', { token: t.body.api_token });
    expect(key.body).toMatchObject({ name: 'admission', ssid: 'lab-dev-bound', mac: 'aa:bb:cc:dd:ee:19' });
    site.backends.proxmox.removeTenantNetwork('devm7');
    expectStatus(await site.call('DELETE', '/v1/tenants/devm7', { token: t.body.api_token }), 204, site.logs);
    expect(boundEntryOf(a.body.wifi.psk)).toBeUndefined();
    expect(allowed()).not.toContain('aa:bb:cc:dd:ee:19');
  });

  it('a reconcile of the enrolled tenant puts back a MAC an operator took off the list', async () => {
    const a = await admit({ name: 'devm8', mac: 'aa:bb:cc:dd:ee:1a' });
    const t = await site.call('POST', '/v1/tenants', { token: a.body.enrollment_token, body: { name: 'devm8' } });
    expect(t.status, t.text).toBe(201);
    bound().mac_filter_list = allowed().filter((m) => m !== 'aa:bb:cc:dd:ee:1a');
    expect(await associate(a.body.wifi.psk, 'aa:bb:cc:dd:ee:1a', 'lab-dev-bound')).toBe(403);
    const r = await site.call('POST', '/v1/tenants/devm8/reconcile');
    expect(r.status, r.text).toBe(200);
    expect(JSON.stringify(r.body)).toContain('"mac"');
    expect(await associate(a.body.wifi.psk, 'aa:bb:cc:dd:ee:1a', 'lab-dev-bound')).toBe(200);
  });
});

describe('admission expiry (the reconcile sweep)', () => {
  it('revokes the keys of admissions that expired unused, bound and unbound, and leaves the rest', async () => {
    const boundOne = await admit({ name: 'deve1', mac: 'aa:bb:cc:dd:ee:21' });
    const unboundOne = await admit({ name: 'deve2' });
    const live = await admit({ name: 'deve3', mac: 'aa:bb:cc:dd:ee:23' });
    await site.registry.sql`update admissions set expires_at = now() - interval '1 minute' where name in ('deve1', 'deve2')`;
    const handle = await site.client.workflow.start('reconcileSweep', {
      taskQueue: site.config.env.TEMPORAL_TASK_QUEUE!,
      workflowId: `sweep-expiry-${Date.now()}`,
      args: [{}],
    });
    const result = (await handle.result()) as { expiredAdmissions?: { revoked: string[]; failed: boolean } };
    expect(result.expiredAdmissions?.failed).toBe(false);
    expect(result.expiredAdmissions?.revoked).toEqual(expect.arrayContaining(['deve1', 'deve2']));
    expect(result.expiredAdmissions?.revoked).not.toContain('deve3');
    expect(await associate(boundOne.body.wifi.psk, 'aa:bb:cc:dd:ee:21', 'lab-dev-bound')).toBe(403);
    expect(unifi().wlan('lab-dev-bound')!.mac_filter_list).not.toContain('aa:bb:cc:dd:ee:21');
    expect(await associate(unboundOne.body.wifi.psk, '02:00:00:00:0e:02')).toBe(403);
    expect(await associate(live.body.wifi.psk, 'aa:bb:cc:dd:ee:23', 'lab-dev-bound')).toBe(200);
    const rows = await site.registry.sql`select tenant from wifi_keys where tenant in ('deve1', 'deve2', 'deve3')`;
    expect(rows.map((r) => r.tenant)).toEqual(['deve3']);
    // Nothing left to withdraw: the admission expired and its key is gone.
    expectStatus(await site.call('DELETE', '/v1/admissions/deve1'), 404, site.logs);
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
    expect(del.body).toMatchObject({ error: 'backend step "wifi" failed', failure: { step: 'wifi' } });
    expect(await associate(r.body.wifi.psk, '02:00:00:00:06:01')).toBe(200);
    expectStatus(await site.call('DELETE', '/v1/admissions/dev6'), 204, site.logs);
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
    expect(r.body).toEqual(
      wifiKeyAnswer('admission', 'developer', 'lab-dev', {
        condition: { ready: true, run: expect.objectContaining({ id: 'admission-wifi/dev7', state: 'done' }), since: expect.any(String) },
      }),
    );
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
