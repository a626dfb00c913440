import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';
import { associateAt, createTenant, faulted } from '../support/lab-calls.js';
import { expectStatus } from '../support/answer.js';

/**
 * Issue 16: what an attacker or a careless operator tried against the lab, each answered as the
 * spec says now. Every case here was reproduced before its fix (docs/reliability.md, "Tried by an
 * attacker"). Items 5, 6, 7 and 12 have their own tests (test/integration/codec-proxy.test.ts,
 * apps/config/env.test.ts, test/e2e/http-rules.test.ts, apps/api/build-info.test.ts).
 */
let site: TestSite;
let a: any;
let b: any;

const unifi = () => site.backends.unifi!;
const entriesWith = (psk: string) =>
  ['lab-devices', 'lab-dev'].flatMap((ssid) => unifi().wlan(ssid)?.private_preshared_keys ?? []).filter((e) => e.password === psk);

const associate = async (psk: string, mac: string, ssid = 'lab-devices'): Promise<number> => (await associateAt(site, ssid, psk, mac)).status;

const created = (name: string) => createTenant(site, name);

const auditOf = (action: string, object: string) =>
  site.registry.sql`select actor, action, tenant, object, detail from audit_log where action = ${action} and object = ${object} order by id`;

beforeAll(async () => {
  site = await startTestSite({ env: { SITE_RESERVED_NAMES: 'www,portal' } });
  [a, b] = await Promise.all([created('hka'), created('hkb')]);
});
afterAll(async () => {
  await site?.stop();
});

describe('item 2: one Wi-Fi key, one tenant', () => {
  let key: any;
  beforeAll(async () => {
    const r = await site.call('POST', '/v1/tenants/hka/wifi-keys', { token: a.api_token, body: { name: 'things', trust_class: 'sensor' } });
    expect(r.status, r.text).toBe(201);
    key = r.body;
  });

  it.each([
    ["another tenant's key, same trust class", 'hkb', () => b.api_token, { name: 'stolen', trust_class: 'sensor' }],
    ["another tenant's key, another trust class", 'hkb', () => b.api_token, { name: 'stolen2', trust_class: 'camera' }],
    ["the same tenant's key under a second name", 'hka', () => a.api_token, { name: 'twin', trust_class: 'sensor' }],
  ])('%s: 400, nothing issued, the key keeps one entry', async (_case, tenant, token, body) => {
    const r = await site.call('POST', `/v1/tenants/${tenant}/wifi-keys`, { token: token(), body: { ...body, psk: key.psk } });
    expect([r.status, r.body]).toEqual([
      400,
      { error: 'psk is not a password of this key; psk only restores a key of this tenant whose stored copy was lost' },
    ]);
    expectStatus(await site.call('GET', `/v1/tenants/${tenant}/wifi-keys/${body.name}`, { token: token() }), 404, site.logs);
    expect(entriesWith(key.psk)).toHaveLength(1);
  });

  it("the owner's devices keep associating, and the owner may still restore its own key", async () => {
    expect(await associate(key.psk, '02:00:00:00:0a:01')).toBe(200);
    const again = await site.call('POST', '/v1/tenants/hka/wifi-keys', { token: a.api_token, body: { name: 'things', trust_class: 'sensor', psk: key.psk } });
    expect(again.status, again.text).toBe(201);
    // After the registry lost the key, the owner's psk restores it.
    await site.registry.sql`delete from wifi_keys where tenant = 'hka' and name = 'things'`;
    const restored = await site.call('POST', '/v1/tenants/hka/wifi-keys', {
      token: a.api_token,
      body: { name: 'things', trust_class: 'sensor', psk: key.psk },
    });
    expect(restored.status, restored.text).toBe(201);
    expect(restored.body.psk).toBe(key.psk);
    expect(entriesWith(key.psk)).toHaveLength(1);
    expect(await associate(key.psk, '02:00:00:00:0a:01')).toBe(200);
  });
});

describe('item 3: admission Wi-Fi keys can be revoked after expiry or a spent token', () => {
  const admit = async (name: string) => {
    const r = await site.call('POST', '/v1/admissions', { body: { name } });
    expect(r.status, r.text).toBe(201);
    return r.body;
  };

  it('an expired admission: DELETE revokes its key (204), then 404', async () => {
    const adm = await admit('hkx');
    await site.registry.sql`update admissions set expires_at = now() - interval '1 minute' where name = 'hkx'`;
    expect(await associate(adm.wifi.psk, '02:00:00:00:0b:01', 'lab-dev')).toBe(200);
    const del = await site.call('DELETE', '/v1/admissions/hkx');
    expect(del.status, del.text).toBe(204);
    expect(await associate(adm.wifi.psk, '02:00:00:00:0b:01', 'lab-dev')).toBe(403);
    expectStatus(await site.call('DELETE', '/v1/admissions/hkx'), 404, site.logs);
  });

  it('a token spent by presenting it for another name: DELETE revokes its key (204)', async () => {
    const adm = await admit('hky');
    const wrong = await site.call('POST', '/v1/tenants', { token: adm.enrollment_token, body: { name: 'hkz' } });
    expect(wrong.status).toBe(401);
    const del = await site.call('DELETE', '/v1/admissions/hky');
    expect(del.status, del.text).toBe(204);
    expect(await associate(adm.wifi.psk, '02:00:00:00:0c:01', 'lab-dev')).toBe(403);
  });

  it("a token spent by its own tenant's create: the key is the tenant's now, DELETE is 404", async () => {
    const adm = await admit('hkw');
    const t = await site.call('POST', '/v1/tenants', { token: adm.enrollment_token, body: { name: 'hkw' } });
    expect(t.status, t.text).toBe(201);
    expectStatus(await site.call('DELETE', '/v1/admissions/hkw'), 404, site.logs);
    expect(await associate(adm.wifi.psk, '02:00:00:00:0d:01', 'lab-dev')).toBe(200);
  });

  it('item 11: admissions issued and withdrawn are in the audit log, with the operator as actor', async () => {
    expect(await auditOf('admission.issue', 'hkx')).toEqual([
      { actor: 'operator', action: 'admission.issue', tenant: 'hkx', object: 'hkx', detail: { wifi: true, mac: null } },
    ]);
    expect(await auditOf('admission.withdraw', 'hkx')).toEqual([
      { actor: 'operator', action: 'admission.withdraw', tenant: 'hkx', object: 'hkx', detail: null },
    ]);
  });
});

describe("item 4: names the site uses are no tenant's", () => {
  it.each([
    ['ns1', 'the primary nameserver of every tenant zone'],
    ['www', 'listed in SITE_RESERVED_NAMES'],
    ['portal', 'listed in SITE_RESERVED_NAMES'],
  ])('%s (%s): tenant create and admission answer 400, nothing is built', async (name) => {
    const want = { error: `name: "${name}" is a name the site itself uses under its domain` };
    const create = await site.call('POST', '/v1/tenants', { body: { name } });
    expect([create.status, create.body]).toEqual([400, want]);
    const admission = await site.call('POST', '/v1/admissions', { body: { name } });
    expect([admission.status, admission.body]).toEqual([400, want]);
    expect(await site.registry.sql`select 1 from tenants where name = ${name} union all select 1 from admissions where name = ${name}`).toHaveLength(0);
  });
});

describe('item 8: values no backend can carry are refused up front', () => {
  const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';
  it.each([
    ['U+2028 in an SSH key comment', `${KEY} dev\u2028laptop`, 'ssh_keys.0: contains a Unicode line or paragraph separator (U+2028, U+2029)'],
    ['U+2029 in an SSH key comment', `${KEY} dev\u2029laptop`, 'ssh_keys.0: contains a Unicode line or paragraph separator (U+2028, U+2029)'],
    ['U+0085 (NEL) in an SSH key comment', `${KEY} dev\u0085laptop`, 'ssh_keys.0: contains a control character'],
    ['a tab in an SSH key comment', `${KEY} dev\tlaptop`, 'ssh_keys.0: contains a control character'],
  ])('%s: 400, no workload registered', async (_case, sshKey, error) => {
    const r = await site.call('POST', '/v1/tenants/hka/workloads', { token: a.api_token, body: { name: 'lsep', ssh_keys: [sshKey] } });
    expect([r.status, r.body]).toEqual([400, { error }]);
    expectStatus(await site.call('GET', '/v1/tenants/hka/workloads/lsep', { token: a.api_token }), 404, site.logs);
  });

  it('an unpaired surrogate (valid JSON, not UTF-8) in an SSH key: 400', async () => {
    const raw = `{"name":"lsep","ssh_keys":["${KEY} dev\\ud800"]}`;
    const r = await site.call('POST', '/v1/tenants/hka/workloads', { token: a.api_token, raw, headers: { 'content-type': 'application/json' } });
    expect([r.status, r.body]).toEqual([400, { error: 'ssh_keys.0: contains an unpaired UTF-16 surrogate' }]);
  });

  it.each([
    ['a C1 control character', 'data/a\u0085b'],
    ['U+2028', 'data/a\u2028b'],
  ])('%s in a broker topic pattern: 400', async (_case, pattern) => {
    const r = await site.call('POST', '/v1/tenants/hka/broker-accounts', { token: a.api_token, body: { name: 'odd', publish: [pattern], subscribe: [] } });
    expect(r.status, r.text).toBe(400);
    expectStatus(await site.call('GET', '/v1/tenants/hka/broker-accounts/odd', { token: a.api_token }), 404, site.logs);
  });
});

describe('item 9: password and index only restore', () => {
  let account: any;
  beforeAll(async () => {
    const r = await site.call('POST', '/v1/tenants/hka/broker-accounts', { token: a.api_token, body: { name: 'meter', publish: ['data/#'], subscribe: [] } });
    expect(r.status, r.text).toBe(201);
    account = r.body;
  });

  it("a password of the tenant's choosing on an existing account: 400, the account's password stays", async () => {
    const r = await site.call('POST', '/v1/tenants/hka/broker-accounts', {
      token: a.api_token,
      body: { name: 'meter', publish: ['data/#'], subscribe: [], password: 'chosen-by-the-tenant' },
    });
    expect([r.status, r.body]).toEqual([
      400,
      { error: "password: not this account's; password only restores an account whose password the service or the broker lost" },
    ]);
    const [row] = await site.registry.sql<{ password_hash: string }[]>`select password_hash from broker_accounts where tenant = 'hka' and name = 'meter'`;
    const { verifyBrokerPassword } = await import('../../core/credentials/broker-password.js');
    expect(verifyBrokerPassword(account.password, row!.password_hash)).toBe(true);
    expect(verifyBrokerPassword('chosen-by-the-tenant', row!.password_hash)).toBe(false);
  });

  it("the account's own password still restores it", async () => {
    const r = await site.call('POST', '/v1/tenants/hka/broker-accounts', {
      token: a.api_token,
      body: { name: 'meter', publish: ['data/#'], subscribe: [], password: account.password },
    });
    expect(r.status, r.text).toBe(201);
  });

  it.each([['as the operator', () => site.operatorToken]])(
    'a tenant create with index and no secrets (%s): 400, no tenant labelled restored',
    async (_case, token) => {
      const r = await site.call('POST', '/v1/tenants', { token: token(), body: { name: 'hkn', index: 40 } });
      expect([r.status, r.body]).toEqual([400, { error: 'index: is for restore only: send it with tsig_secret, state_secret and api_token' }]);
      expect(await site.registry.sql`select 1 from tenants where name = 'hkn'`).toHaveLength(0);
    },
  );
});

describe('item 11: tenant create, restore and delete are in the audit log', () => {
  /** The audit log holds one `action` entry for the tenant's zone: by `actor`, with the outcome, its index and both its zones. */
  async function expectOneEntry(action: string, name: string, t: any, actor: string, outcome: string): Promise<void> {
    expect(await auditOf(action, t.dns.zone)).toEqual([
      { actor, action, tenant: name, object: t.dns.zone, detail: { outcome, index: t.index, zones: [t.dns.zone, t.dns.reverse_zone] } },
    ]);
  }

  it('create: the zones published, the caller, the outcome', async () => {
    await expectOneEntry('tenant.create', 'hka', a, 'operator', 'created');
  });

  it('restore: a create carrying the secrets, by the tenant itself', async () => {
    const body = { name: 'hkb', tsig_secret: b.dns.tsig_secret, state_secret: b.state.secret_key, api_token: b.api_token };
    const r = await site.call('POST', '/v1/tenants', { token: b.api_token, body });
    expect(r.status, r.text).toBe(200);
    await expectOneEntry('tenant.restore', 'hkb', b, 'tenant:hkb', 'reconciled');
  });

  it('delete: every name of the zones gone, by the tenant itself', async () => {
    site.backends.proxmox.removeTenantNetwork('hkb');
    const del = await site.call('DELETE', '/v1/tenants/hkb', { token: b.api_token });
    expect(del.status, del.text).toBe(204);
    expect(await auditOf('tenant.delete', b.dns.zone)).toEqual([
      { actor: 'tenant:hkb', action: 'tenant.delete', tenant: 'hkb', object: b.dns.zone, detail: { zones: [b.dns.zone, b.dns.reverse_zone] } },
    ]);
  });

  it('no audit entry carries a secret', async () => {
    const text = JSON.stringify(await site.registry.sql`select * from audit_log`);
    for (const secret of [a.api_token, a.dns.tsig_secret, a.state.secret_key, b.api_token, b.dns.tsig_secret, b.state.secret_key])
      expect(text).not.toContain(secret);
  });
});

describe('item 1: a revoked tenant token stays revoked', () => {
  it('a token replaced by a resume, or held when the tenant was deleted, never restores it; the tenant stays gone', async () => {
    const failed = await faulted(site.backends.minio.faults, { failNext: 1000, match: '/minio/admin' }, () =>
      site.call('POST', '/v1/tenants', { body: { name: 'hrv' } }),
    );
    expect(failed.status).toBe(502);
    const t1: string = failed.body.tenant.api_token;
    const resumed = await site.call('POST', '/v1/tenants', { body: { name: 'hrv' } });
    expect(resumed.status, resumed.text).toBe(200);
    const t2: string = resumed.body.api_token;
    expectStatus(await site.call('GET', '/v1/tenants/hrv', { token: t1 }), 401, site.logs);
    site.backends.proxmox.removeTenantNetwork('hrv');
    expectStatus(await site.call('DELETE', '/v1/tenants/hrv', { token: t2 }), 204, site.logs);

    // The attack: the replaced token restores the deleted tenant with the attacker's state secret.
    const attacker = { name: 'hrv', tsig_secret: Buffer.alloc(32, 7).toString('base64'), state_secret: 'attackers-own-secret' };
    for (const token of [t1, t2]) {
      const r = await site.call('POST', '/v1/tenants', { token, body: { ...attacker, api_token: token } });
      expect([r.status, r.body]).toEqual([401, { error: 'unauthorized' }]);
      // Nor may an operator bring a revoked token back through a restore body.
      const o = await site.call('POST', '/v1/tenants', { body: { ...attacker, api_token: token } });
      expect(o.status).toBe(400);
      expect(o.body.error).toMatch(/revoked/);
    }
    expectStatus(await site.call('GET', '/v1/tenants/hrv'), 404, site.logs);
    // The revocation is kept by hash only.
    const rows = await site.registry.sql`select token_hash, tenant from revoked_tenant_tokens where tenant = 'hrv'`;
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(t1);
  });
});
