import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTenantNetwork } from '../../apps/lab/simulators/proxmox/index.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectNoSecrets, expectUnauthorized } from '../support/tenant-body.js';
import { expectStatus } from '../support/answer.js';

/**
 * Authentication rules 1-7 of the spec, through the HTTP API: what a tenant token, the egress
 * agent token and a forged token may do, token replacement on resume, and a tenant restoring
 * itself with its own token after the registry lost its row.
 */
let site: TestSite;
/** Create answers of the tenants made in beforeAll, by name. */
const created: Record<string, any> = {};

async function create(name: string, body: Record<string, unknown> = {}, token?: string | null) {
  return site.call('POST', '/v1/tenants', { token, body: { name, ...body } });
}

function restoreBody(t: any, extra: Record<string, unknown> = {}) {
  return { tsig_secret: t.dns.tsig_secret, state_secret: t.state.secret_key, api_token: t.api_token, ...extra };
}

beforeAll(async () => {
  site = await startTestSite();
  const names = ['tka', 'tkb', 'tkc', 'tkd', 'tke'];
  const answers = await Promise.all(names.map((n) => create(n)));
  answers.forEach((r, i) => {
    expect(r.status, r.text).toBe(201);
    created[names[i]!] = r.body;
  });
});
afterAll(async () => {
  await site?.stop();
});

describe('a tenant token', () => {
  it('reads its own tenant, without any secret', async () => {
    const r = await site.call('GET', '/v1/tenants/tka', { token: created.tka.api_token });
    expect(r.status, r.text).toBe(200);
    expect(r.body.name).toBe('tka');
    expect(r.body.status).toBe('ready');
    expect(r.body).not.toHaveProperty('outcome');
    expectNoSecrets(r.body);
  });

  it('is stored only as a hash', async () => {
    const token: string = created.tka.api_token;
    const rows = await site.registry.sql`select * from tenants where name = 'tka'`;
    expect(rows[0]!.api_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("gets 404 tenant not found for another tenant's read, delete and create", async () => {
    const token = created.tka.api_token;
    for (const r of [
      await site.call('GET', '/v1/tenants/tkb', { token }),
      await site.call('DELETE', '/v1/tenants/tkb', { token }),
      await create('tkb', {}, token),
      // An unregistered name answers the same, so existence cannot be probed.
      await site.call('GET', '/v1/tenants/nosuch', { token }),
      await create('nosuch', {}, token),
    ]) {
      expect(r.status, r.text).toBe(404);
      expect(r.body).toEqual({ error: 'tenant not found' });
    }
    // The other tenant is untouched.
    expect((await site.call('GET', '/v1/tenants/tkb')).body.status).toBe('ready');
  });

  it('gets 403 operator only on operator-only routes', async () => {
    const token = created.tka.api_token;
    for (const r of [
      await site.call('GET', '/v1/tenants', { token }),
      await site.call('POST', '/v1/tenants/tka/reconcile', { token }),
      await site.call('POST', '/v1/admissions', { token, body: { name: 'tkzz' } }),
      await site.call('DELETE', '/v1/admissions/tkzz', { token }),
    ]) {
      expect(r.status, r.text).toBe(403);
      expect(r.body).toEqual({ error: 'operator only' });
    }
  });

  it('is not the egress agent', async () => {
    expectUnauthorized(await site.call('GET', '/v1/fabric/egress', { token: created.tka.api_token }));
  });
});

describe('the egress agent token', () => {
  it('reads the egress VRFs', async () => {
    const r = await site.call('GET', '/v1/fabric/egress', { token: site.egressToken });
    expect(r.status, r.text).toBe(200);
    expect(r.body.vrfs).toContainEqual({ tenant: 'tka', vrf: 'vrf_tka' });
  });

  it('is unauthorized everywhere else', async () => {
    const token = site.egressToken;
    for (const r of [
      await site.call('GET', '/v1/tenants', { token }),
      await site.call('GET', '/v1/tenants/tka', { token }),
      await create('tka', {}, token),
      await create('tkeg', {}, token),
      await site.call('DELETE', '/v1/tenants/tka', { token }),
      await site.call('POST', '/v1/tenants/tka/reconcile', { token }),
      await site.call('POST', '/v1/admissions', { token, body: { name: 'tkeg' } }),
      await site.call('DELETE', '/v1/admissions/tkeg', { token }),
    ]) {
      expectUnauthorized(r);
    }
    expectStatus(await site.call('GET', '/v1/tenants/tka'), 200, site.logs);
    expectStatus(await site.call('GET', '/v1/tenants/tkeg'), 404, site.logs);
  });
});

describe('unrecognised tokens', () => {
  it('answers 401 to no token, an unknown one and a forged tenant token', async () => {
    const genuine: string = created.tka.api_token;
    const [, name, nonce, mac] = genuine.split('.') as [string, string, string, string];
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [
      null,
      'nonsense',
      `dvt1.${name}.${nonce}.${flipped}`,
      `dvt1.${name}.${nonce}.${'A'.repeat(43)}`,
      // A genuine MAC does not carry over to another name.
      `dvt1.tkb.${nonce}.${mac}`,
    ]) {
      expectUnauthorized(await site.call('GET', `/v1/tenants/${name}`, { token }));
    }
  });
});

describe('the Authorization header', () => {
  it('takes the Bearer scheme in any case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const r = await site.call('GET', '/v1/tenants/tka', { token: null, headers: { authorization: `${scheme} ${created.tka.api_token}` } });
      expect(r.status, `${scheme}: ${r.text}`).toBe(200);
    }
    expectUnauthorized(await site.call('GET', '/v1/tenants/tka', { token: null, headers: { authorization: `Basic ${created.tka.api_token}` } }));
    expectUnauthorized(await site.call('GET', '/v1/tenants/tka', { token: null, headers: { authorization: created.tka.api_token } }));
  });
});

describe('resuming a tenant', () => {
  it('issues a new token and revokes the previous one', async () => {
    const old: string = created.tkc.api_token;
    await site.registry.sql`update tenants set status = 'provisioning' where name = 'tkc'`;
    const r = await create('tkc');
    expect(r.status, r.text).toBe(200);
    expect(r.body.outcome).toBe('resumed');
    expect(r.body.status).toBe('ready');
    expect(r.body.index).toBe(created.tkc.index);
    expect(r.body.api_token).toMatch(/^dvt1\.tkc\./);
    expect(r.body.api_token).not.toBe(old);
    // Resuming never issues a second identity or secret (rule 2).
    expect(r.body.dns.tsig_secret).toBe(created.tkc.dns.tsig_secret);
    expect(r.body.state.secret_key).toBe(created.tkc.state.secret_key);

    expectUnauthorized(await site.call('GET', '/v1/tenants/tkc', { token: old }));
    const fresh = await site.call('GET', '/v1/tenants/tkc', { token: r.body.api_token });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.status).toBe('ready');
  });
});

describe('a tenant whose registry row is gone', () => {
  it('is answered 404 tenant not found, not 401', async () => {
    await site.registry.sql`delete from tenants where name = 'tkd'`;
    const token = created.tkd.api_token;
    for (const r of [await site.call('GET', '/v1/tenants/tkd', { token }), await site.call('DELETE', '/v1/tenants/tkd', { token })]) {
      expect(r.status, r.text).toBe(404);
      expect(r.body).toEqual({ error: 'tenant not found' });
    }
    // Still only its own name.
    const other = await site.call('GET', '/v1/tenants/tka', { token });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: 'tenant not found' });
  });

  it('refuses a restore missing secrets, with the reason', async () => {
    const t = created.tkd;
    const token = t.api_token;
    const none = await create('tkd', {}, token);
    expect(none.status, none.text).toBe(400);
    expect(none.body.error).toMatch(/tsig_secret/);
    for (const partial of [
      { tsig_secret: t.dns.tsig_secret },
      { tsig_secret: t.dns.tsig_secret, state_secret: t.state.secret_key },
      { state_secret: t.state.secret_key, api_token: token },
    ]) {
      const r = await create('tkd', partial, token);
      expect(r.status, r.text).toBe(400);
      expect(r.body.error).toMatch(/all together or not at all/);
    }
    expectStatus(await site.call('GET', '/v1/tenants/tkd'), 404, site.logs);
  });

  it('refuses an api_token issued for another name', async () => {
    const r = await create('tkd', restoreBody(created.tkd, { api_token: created.tka.api_token, index: created.tkd.index }), created.tkd.api_token);
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toMatch(/api_token/);
    expect(JSON.stringify(r.body)).not.toContain(created.tka.api_token);
  });

  it('refuses an index outside 1..62', async () => {
    for (const index of [0, 63, 64, -1]) {
      const r = await create('tkd', restoreBody(created.tkd, { index }), created.tkd.api_token);
      expect(r.status, r.text).toBe(400);
      expect(r.body.error).toMatch(/index/);
    }
  });

  it('restores itself with its own token: same index, same secrets', async () => {
    const t = created.tkd;
    const r = await create('tkd', restoreBody(t, { index: t.index }), t.api_token);
    expect(r.status, r.text).toBe(201);
    expect(r.body.outcome).toBe('restored');
    expect(r.body.index).toBe(t.index);
    expect(r.body.status).toBe('ready');
    expect(r.body.secrets_stored).toBe(true);
    expect(r.body.dns.tsig_secret).toBe(t.dns.tsig_secret);
    expect(r.body.state.secret_key).toBe(t.state.secret_key);
    expect(r.body.api_token).toBe(t.api_token);
    expect(r.body.network).toEqual(t.network);
    // The state store still accepts the tenant's own secret.
    expect(site.backends.minio.state.users.get('tkd')?.secretKey).toBe(t.state.secret_key);

    const read = await site.call('GET', '/v1/tenants/tkd', { token: t.api_token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.secrets_stored).toBe(true);
    expect(read.body.index).toBe(t.index);
    expectNoSecrets(read.body);
  });

  it('is reissued another index when its index was meanwhile given to another tenant', async () => {
    const t = created.tke;
    const k: number = t.index;
    // The registry loses tke; the operator clears its fabric network and the index goes to tkf
    // (a registry row: an index alone no longer steers a create, it is restore only).
    await site.registry.sql`delete from tenants where name = 'tke'`;
    removeTenantNetwork(site.backends.proxmox.state, 'tke');
    await site.registry.sql`insert into tenants ${site.registry.sql({ name: 'tkf', index: k, status: 'ready', tsig_secret: 'k1:x', state_secret: 'k1:x' })}`;

    const r = await create('tke', restoreBody(t, { index: k }), t.api_token);
    expect(r.status, r.text).toBe(201);
    expect(r.body.outcome).toBe('reissued');
    expect(r.body.index).not.toBe(k);
    expect(r.body.index).toBeGreaterThanOrEqual(1);
    expect(r.body.index).toBeLessThanOrEqual(62);
    expect(r.body.network.vrf_vni).toBe(10000 + r.body.index);
    expect(r.body.dns.tsig_secret).toBe(t.dns.tsig_secret);
    expect(r.body.api_token).toBe(t.api_token);

    const read = await site.call('GET', '/v1/tenants/tke', { token: t.api_token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.index).toBe(r.body.index);
    expect((await site.call('GET', '/v1/tenants/tkf')).body.index).toBe(k);
  });
});
