import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * Issue 27 item 8: a kept `Idempotency-Key` answer is purged when the object it answered for is
 * deleted or its secret replaced. A repeat within the window then finds its key unknown and runs
 * again as a first request: it never hands a deleted key's psk, or a replaced password, secret or
 * token, back to its caller.
 */
let site: TestSite;
let token: string;

type Answer = { status: number; body: any; headers: Headers; text: string };
const call = (method: string, path: string, o: { key?: string; body?: unknown; token?: string } = {}): Promise<Answer> =>
  site.call(method, path, {
    ...(o.token ? { token: o.token } : {}),
    ...(o.body !== undefined ? { body: o.body } : {}),
    headers: o.key ? { 'idempotency-key': o.key } : {},
  });
const replayed = (r: Answer) => r.headers.get('idempotent-replayed') === 'true';

beforeAll(async () => {
  site = await startTestSite();
  const created = await call('POST', '/v1/tenants', { body: { name: 'idpg' } });
  expect(created.status, created.text).toBe(201);
  token = created.body.api_token;
});
afterAll(async () => {
  await site?.stop();
});

describe('a kept answer whose object is deleted', () => {
  it('a Wi-Fi key issued with a key, revoked, then repeated: no psk of the revoked key, the issue runs again', async () => {
    const key = randomUUID();
    const issue = () => call('POST', '/v1/tenants/idpg/wifi-keys', { token, key, body: { name: 'sensors', trust_class: 'sensor' } });
    const first = await issue();
    expect(first.status, first.text).toBe(201);
    const revokedPsk = first.body.psk as string;
    expect(revokedPsk).toEqual(expect.any(String));
    // Another key's answer, of another object, stays kept.
    const otherKey = randomUUID();
    const other = await call('POST', '/v1/tenants/idpg/wifi-keys', { token, key: otherKey, body: { name: 'cameras', trust_class: 'camera' } });
    expect(other.status, other.text).toBe(201);
    expect(replayed(await issue())).toBe(true);

    const revoked = await call('DELETE', '/v1/tenants/idpg/wifi-keys/sensors', { token });
    expect(revoked.status, revoked.text).toBe(204);

    const again = await issue();
    expect(replayed(again)).toBe(false);
    expect(again.text).not.toContain(revokedPsk);
    expect(again.status, again.text).toBe(201);
    expect(again.body.psk).not.toBe(revokedPsk);
    // The repeat's answer is the key's first answer now.
    const third = await issue();
    expect(replayed(third)).toBe(true);
    expect(third.body.psk).toBe(again.body.psk);
    // The other object's answer was left alone.
    const otherAgain = await call('POST', '/v1/tenants/idpg/wifi-keys', { token, key: otherKey, body: { name: 'cameras', trust_class: 'camera' } });
    expect(replayed(otherAgain)).toBe(true);
    expect(otherAgain.text).toBe(other.text);
  });

  it('a broker account deleted: its password is not handed out again', async () => {
    const key = randomUUID();
    const body = { name: 'app', publish: ['data/#'], subscribe: [] };
    const first = await call('POST', '/v1/tenants/idpg/broker-accounts', { token, key, body });
    expect(first.status, first.text).toBe(201);
    const password = first.body.password as string;
    expect(password).toEqual(expect.any(String));
    expect((await call('DELETE', '/v1/tenants/idpg/broker-accounts/app', { token })).status).toBe(204);
    const again = await call('POST', '/v1/tenants/idpg/broker-accounts', { token, key, body });
    expect(replayed(again)).toBe(false);
    expect(again.text).not.toContain(password);
  });

  it('an admission withdrawn: its Wi-Fi key and enrollment token are not handed out again', async () => {
    const key = randomUUID();
    const admit = () => call('POST', '/v1/admissions', { key, body: { name: 'idpgadm' } });
    const first = await admit();
    expect(first.status, first.text).toBe(201);
    expect((await call('DELETE', '/v1/admissions/idpgadm')).status).toBe(204);
    const again = await admit();
    expect(replayed(again)).toBe(false);
    expect(again.text).not.toContain(first.body.enrollment_token);
    if (first.body.wifi) expect(again.text).not.toContain(first.body.wifi.psk);
  });
});

describe('a kept answer whose secret is replaced', () => {
  it('a broker account issued again keeps its password: nothing replaced, the answer stays kept', async () => {
    const key = randomUUID();
    const body = { name: 'meter', publish: ['meter/#'], subscribe: [] };
    const first = await call('POST', '/v1/tenants/idpg/broker-accounts', { token, key, body });
    expect(first.status, first.text).toBe(201);
    const same = await call('POST', '/v1/tenants/idpg/broker-accounts', { token, body: { ...body, subscribe: ['meter/+/set'] } });
    expect(same.status, same.text).toBeLessThan(300);
    expect(same.body.password).toBeUndefined();
    const again = await call('POST', '/v1/tenants/idpg/broker-accounts', { token, key, body });
    expect(replayed(again)).toBe(true);
    expect(again.text).toBe(first.text);
  });

  it('a Wi-Fi key restored with another psk: the old psk is not handed out again', async () => {
    const key = randomUUID();
    const issue = () => call('POST', '/v1/tenants/idpg/wifi-keys', { token, key, body: { name: 'doors', trust_class: 'sensor' } });
    const first = await issue();
    expect(first.status, first.text).toBe(201);
    // The service lost its copy (sealed under a key it no longer holds): the tenant restores the key with its own psk.
    await site.registry.sql`update wifi_keys set psk = 'gone:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' where tenant = 'idpg' and name = 'doors'`;
    const restored = await call('POST', '/v1/tenants/idpg/wifi-keys', { token, body: { name: 'doors', trust_class: 'sensor', psk: `psk-${randomUUID()}` } });
    expect(restored.status, restored.text).toBe(201);
    const again = await issue();
    expect(replayed(again)).toBe(false);
    expect(again.text).not.toContain(first.body.psk);
  });

  it("a re-admission's new Wi-Fi key: the first admission's answer is not handed out again", async () => {
    const key = randomUUID();
    const admit = (k?: string) => call('POST', '/v1/admissions', { ...(k ? { key: k } : {}), body: { name: 'idpgre' } });
    const first = await admit(key);
    expect(first.status, first.text).toBe(201);
    const second = await admit();
    expect(second.status, second.text).toBe(201);
    const again = await admit(key);
    expect(replayed(again)).toBe(false);
    expect(again.text).not.toContain(first.body.enrollment_token);
    if (first.body.wifi) expect(again.text).not.toContain(first.body.wifi.psk);
  });

  it("a tenant's secrets replaced by a restore of a ready tenant: the create's answer is not handed out again", async () => {
    const key = randomUUID();
    const create = () => call('POST', '/v1/tenants', { key, body: { name: 'idpgsec' } });
    const first = await create();
    expect(first.status, first.text).toBe(201);
    const restored = await call('POST', '/v1/tenants', {
      body: {
        name: 'idpgsec',
        tsig_secret: Buffer.from(randomUUID()).toString('base64'),
        state_secret: `st-${randomUUID().slice(0, 20)}`,
        api_token: first.body.api_token,
      },
    });
    expect(restored.status, restored.text).toBe(200);
    const again = await create();
    expect(replayed(again)).toBe(false);
    for (const secret of [first.body.dns.tsig_secret, first.body.state.secret_key]) expect(again.text).not.toContain(secret);
    // Ready and no secrets: the create runs again and is refused, as without a key.
    expect(again.status, again.text).toBe(409);
  });
});

describe('a tenant deleted', () => {
  it("purges every kept answer of the tenant and of what it owned, whoever's key it was", async () => {
    const key = randomUUID();
    const create = () => call('POST', '/v1/tenants', { key, body: { name: 'idpgdel' } });
    const first = await create();
    expect(first.status, first.text).toBe(201);
    const own = first.body.api_token as string;
    const wifiKey = randomUUID();
    const wifi = await call('POST', '/v1/tenants/idpgdel/wifi-keys', { token: own, key: wifiKey, body: { name: 'sensors', trust_class: 'sensor' } });
    expect(wifi.status, wifi.text).toBe(201);
    site.backends.proxmox.removeTenantNetwork('idpgdel');
    expect((await call('DELETE', '/v1/tenants/idpgdel', { token: own })).status).toBe(204);

    const rows = await site.registry.sql`select 1 from idempotency_keys where key in (${key}, ${wifiKey})`;
    expect(rows).toHaveLength(0);
    // The Wi-Fi key's repeat: the tenant is gone (its token with it).
    const wifiAgain = await call('POST', '/v1/tenants/idpgdel/wifi-keys', { token: own, key: wifiKey, body: { name: 'sensors', trust_class: 'sensor' } });
    expect(replayed(wifiAgain)).toBe(false);
    expect(wifiAgain.text).not.toContain(wifi.body.psk);
    const again = await create();
    expect(replayed(again)).toBe(false);
    for (const secret of [own, first.body.dns.tsig_secret, first.body.state.secret_key]) expect(again.text).not.toContain(secret);
  });

  it("a delete refused for another tenant's token (404) purges nothing", async () => {
    const key = randomUUID();
    const issue = () => call('POST', '/v1/tenants/idpg/wifi-keys', { token, key, body: { name: 'gate', trust_class: 'sensor' } });
    expect((await issue()).status).toBe(201);
    const stranger = await call('POST', '/v1/tenants', { body: { name: 'idpgx' } });
    expect(stranger.status, stranger.text).toBe(201);
    expect((await call('DELETE', '/v1/tenants/idpg/wifi-keys/gate', { token: stranger.body.api_token })).status).toBe(404);
    expect(replayed(await issue())).toBe(true);
  });
});
