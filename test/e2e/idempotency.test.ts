import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerId, requestHash } from '../../apps/api/idempotency/request.js';
import { deriveKey } from '../../apps/config/env.js';
import { purgeExpiredIdempotencyKeys } from '../../db/queries/idempotency.js';
import { cuttingProxy, type CuttingProxy } from '../support/cutting-proxy.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectUnauthorized } from '../support/tenant-body.js';

/**
 * `Idempotency-Key` (issue 19): a create whose answer never reached the caller is answered again,
 * secrets included, when repeated with its key. The answer is cut by a TCP proxy this test owns:
 * the request reaches the API whole, the answer's first byte closes the caller's connection (the
 * proxy keeps what it cut, to compare with what the repeat gets).
 */
let site: TestSite;
let proxy: CuttingProxy;

const create = (name: string, o: { key?: string; token?: string; body?: Record<string, unknown> } = {}) =>
  site.call('POST', '/v1/tenants', { token: o.token, body: o.body ?? { name }, headers: o.key ? { 'idempotency-key': o.key } : {} });

/** A create through the cutting proxy: the caller sees its connection fail. */
async function createCut(name: string, key?: string): Promise<string> {
  const before = proxy.cut.length;
  // `connection: close`: the API ends the upstream connection after its answer, so the proxy knows it has all of it.
  const headers: Record<string, string> = { authorization: `Bearer ${site.operatorToken}`, 'content-type': 'application/json', connection: 'close' };
  if (key) headers['idempotency-key'] = key;
  await expect(fetch(`${proxy.url}/v1/tenants`, { method: 'POST', headers, body: JSON.stringify({ name }) })).rejects.toThrow();
  // The API wrote the whole answer to the proxy, which kept it.
  for (let i = 0; proxy.cut.length === before && i < 200; i++) await new Promise((r) => setTimeout(r, 50));
  return proxy.cut[before]!;
}

beforeAll(async () => {
  site = await startTestSite({ minimal: true });
  proxy = await cuttingProxy(new URL(site.url));
});
afterAll(async () => {
  await proxy?.close();
  await site?.stop();
});

describe('a create whose answer was lost', () => {
  it('repeated with its key, answers the same tenant and secrets again, and the token works', async () => {
    const key = randomUUID();
    const lost = await createCut('idlost', key);
    expect(lost).toMatch(/^HTTP\/1\.1 201/);

    const again = await create('idlost', { key });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.outcome).toBe('created');
    // The same secrets the cut answer carried.
    for (const secret of [again.body.api_token, again.body.dns.tsig_secret, again.body.state.secret_key]) {
      expect(secret).toEqual(expect.any(String));
      expect(lost).toContain(secret);
    }
    const read = await site.call('GET', '/v1/tenants/idlost', { token: again.body.api_token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.index).toBe(again.body.index);

    // And again: the kept answer, byte for byte.
    const third = await create('idlost', { key });
    expect(third.text).toBe(again.text);
  });

  it('repeated without a key, is refused as the spec says (ready, no secrets: 409)', async () => {
    const lost = await createCut('idnokey');
    expect(lost).toMatch(/^HTTP\/1\.1 201/);
    const again = await create('idnokey');
    expect(again.status, again.text).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('Idempotency-Key rules', () => {
  it('the same key with another body answers 422, and the first answer stays kept', async () => {
    const key = randomUUID();
    const first = await create('idbody', { key });
    expect(first.status, first.text).toBe(201);
    const other = await create('idbody', { key, body: { name: 'idbodz' } });
    expect(other.status, other.text).toBe(422);
    expect(other.body).toEqual({ error: 'this Idempotency-Key was used with another request; use a new key' });
    // A body the route refuses is not a use of the key: its 400 says why, as without one.
    const invalid = await create('idbody', { key, body: { name: 'idbody', colour: 'red' } });
    expect(invalid.status, invalid.text).toBe(400);
    expect(invalid.body).toEqual({ error: 'unknown field "colour"' });
    const same = await create('idbody', { key });
    expect(same.status).toBe(201);
    expect(same.body.api_token).toBe(first.body.api_token);
  });

  it("another caller's use of a key is unrelated to it", async () => {
    const key = randomUUID();
    const first = await create('idowner', { key });
    expect(first.status, first.text).toBe(201);
    const tenant = first.body.api_token as string;
    // The tenant's own token, the same key, another request: not a 422, its own first request.
    const put = (token: string, address: string) =>
      site.call('PUT', '/v1/tenants/idowner/records/www', { token, body: { address }, headers: { 'idempotency-key': key } });
    const base = first.body.network.subnet.replace(/0\/24$/, '');
    const mine = await put(tenant, `${base}50`);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.headers.get('idempotent-replayed')).toBeNull();
    // The operator's key K is bound to its create: another body from it is a 422...
    expect((await put(site.operatorToken, `${base}51`)).status).toBe(422);
    // ...while the tenant's repeat of its own request is replayed.
    const repeat = await put(tenant, `${base}50`);
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a repeat while the first still runs waits for it and gets its answer', async () => {
    const key = randomUUID();
    const [a, b] = await Promise.all([create('idrace', { key }), create('idrace', { key })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a, b].filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    expect(a.text).toBe(b.text);
  });

  it('a spent enrollment token gets its create answer again with its key, and only with it', async () => {
    const admitted = await site.call('POST', '/v1/admissions', { body: { name: 'idenrol' } });
    expect(admitted.status, admitted.text).toBe(201);
    const token = admitted.body.enrollment_token as string;
    const key = randomUUID();
    const first = await create('idenrol', { key, token });
    expect(first.status, first.text).toBe(201);
    const again = await create('idenrol', { key, token });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.api_token).toBe(first.body.api_token);
    // The token is spent: without the key, or with another one, it is what it is.
    expectUnauthorized(await create('idenrol', { token }));
    expectUnauthorized(await create('idenrol', { key: randomUUID(), token }));
  });

  it('a failed step is not kept: the repeat with the key resumes', async () => {
    const key = randomUUID();
    site.backends.pdns.faults.add({ failNext: 1000, status: 500, match: '/zones' });
    let failed;
    try {
      failed = await create('idfail', { key });
    } finally {
      site.backends.pdns.faults.clear();
    }
    expect(failed.status, failed.text).toBe(502);
    const resumed = await create('idfail', { key });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body.outcome).toBe('resumed');
    expect(resumed.headers.get('idempotent-replayed')).toBeNull();
    // The resume's answer is the one kept now.
    const again = await create('idfail', { key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.api_token).toBe(resumed.body.api_token);
  });

  it('takes over a first request whose API instance died (its heartbeat stopped), and runs it', async () => {
    const key = randomUUID();
    const body = JSON.stringify({ name: 'idorphan' });
    // What an instance killed mid-request leaves: the key claimed, no answer, a heartbeat long stopped.
    const caller = callerId(deriveKey(site.config.site!.secretsKey, 'idempotency-caller'), site.operatorToken);
    await site.registry.sql`insert into idempotency_keys (caller, key, request_hash, heartbeat_at, expires_at)
      values (${caller}, ${key}, ${requestHash('POST', '/v1/tenants', body)}, now() - interval '1 minute', now() + interval '1 hour')`;
    const r = await create('idorphan', { key });
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get('idempotent-replayed')).toBeNull();
    const again = await create('idorphan', { key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.api_token).toBe(r.body.api_token);
  });

  it('an invalid key is a 400 that says why', async () => {
    const r = await create('idbad', { key: 'k'.repeat(256) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'Idempotency-Key: must be 1 to 255 visible ASCII characters' });
  });

  it('keeps answers sealed: no secret of the answer is readable in the registry', async () => {
    const key = randomUUID();
    const first = await create('idseal', { key });
    expect(first.status, first.text).toBe(201);
    const rows = await site.registry.sql<{ answer: string; caller: string }[]>`select answer, caller from idempotency_keys where key = ${key}`;
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    for (const secret of [first.body.api_token, first.body.dns.tsig_secret, first.body.state.secret_key, site.operatorToken]) {
      expect(stored).not.toContain(secret);
    }
  });

  it('after the window the key is forgotten, and expired answers are purged', async () => {
    const key = randomUUID();
    const first = await create('idwin', { key });
    expect(first.status, first.text).toBe(201);
    // The window passing, without waiting a day for it.
    await site.registry.sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = ${key}`;
    const later = await create('idwin', { key });
    expect(later.status, later.text).toBe(409);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    // The 409 is the key's new first answer; once it expires too, the purge removes it.
    await site.registry.sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = ${key}`;
    expect(await purgeExpiredIdempotencyKeys(site.registry.db)).toBeGreaterThanOrEqual(1);
    const left = await site.registry.sql`select 1 from idempotency_keys where key = ${key}`;
    expect(left).toHaveLength(0);
  });
});
