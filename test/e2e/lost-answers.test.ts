import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldStateSecret, heldTsigSecret } from '../support/backend-objects.js';
import { hangingProxy, type HangingProxy } from '../support/hanging-proxy.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { expectStatus } from '../support/answer.js';

/**
 * Answers a caller may not have received (issue 42 item 3): the API process serving a create or a
 * delete is killed (SIGKILL) mid-call, or loses Temporal and answers 503, while the run goes on.
 * The repeat, at another API process or at one started afresh, answers what the run answered: a
 * create's secrets (the ones the run issued and the backends hold), a delete's 204; with an
 * `Idempotency-Key` too, marked `Idempotent-Replayed`. Nothing of it lives in one process's memory:
 * the run keeps its answer sealed in the registry (db/schema/object-runs.ts).
 */
let site: TestSite;
let proxy: HangingProxy;
const spawned: ChildProcess[] = [];

beforeAll(async () => {
  site = await startTestSite({ minimal: true });
  proxy = await hangingProxy();
  const [host, port] = site.config.env.TEMPORAL_ADDRESS.split(':');
  proxy.target = { host: host!, port: Number(port) };
}, 120_000);
afterAll(async () => {
  site?.backends.minio.faults.clear();
  for (const c of spawned) if (c.exitCode === null) c.kill('SIGKILL');
  await proxy?.close();
  await site?.stop();
});

async function api(env?: Record<string, string>) {
  const a = await site.spawnApi(env ? { env } : {});
  spawned.push(a.child);
  return a;
}

interface Answer {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

async function call(url: string, method: string, path: string, o: { body?: unknown; key?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${site.operatorToken}` };
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  if (o.key) headers['idempotency-key'] = o.key;
  const res = await fetch(`${url}${path}`, { method, headers, ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers, text };
}

const tenantIs = async (name: string, status: string | undefined) => {
  const rows = await site.registry.sql<{ status: string }[]>`select status from tenants where name = ${name}`;
  return status === undefined ? rows.length === 0 : rows[0]?.status === status;
};

/** The secrets of a collected create are the run's: the backends hold them, and the token is the tenant's. */
async function expectTheRunsSecrets(name: string, answer: Answer): Promise<void> {
  expect(answer.status, answer.text).toBe(201);
  expect(answer.body.outcome).toBe('created');
  expect(answer.body.dns.tsig_secret).toBe(await heldTsigSecret(site, name));
  expect(answer.body.state.secret_key).toBe(heldStateSecret(site, name));
  expectStatus(await site.call('GET', `/v1/tenants/${name}`, { token: answer.body.api_token }), 200, site.logs);
}

/** A create whose state step is slow, so the call is in flight when its API process goes. */
async function createInFlight(url: string, name: string, key?: string): Promise<{ answer: Promise<Answer | Error> }> {
  site.backends.minio.faults.add({ latencyMs: 1_500 });
  const first = call(url, 'POST', '/v1/tenants', { body: { name }, ...(key ? { key } : {}) }).catch((e: Error) => e);
  await waitFor(() => tenantIs(name, 'provisioning'), 20_000);
  // Wrapped: an async function returning the promise itself would wait for it.
  return { answer: first };
}

describe('the API process serving a create is killed mid-call (SIGKILL)', () => {
  it.each([
    ['repeated without a key at another API process, running all along', 'lostc1', undefined, 'another'],
    ['repeated with its Idempotency-Key at another API process, running all along', 'lostc2', 'key-lostc2', 'another'],
    ['repeated without a key at the API process started again on its address', 'lostc3', undefined, 'restarted'],
    ['repeated with its Idempotency-Key at the API process started again on its address', 'lostc4', 'key-lostc4', 'restarted'],
  ] as const)(
    "%s: the run's secrets, once",
    async (_how, name, key, where) => {
      const a = await api();
      const other = where === 'another' ? await api() : undefined;
      const first = await createInFlight(a.url, name, key);
      a.child.kill('SIGKILL');
      expect(await first.answer).toBeInstanceOf(Error);
      site.backends.minio.faults.clear();
      // The run went on without the API: the tenant is made, its answer nobody's yet.
      await waitFor(() => tenantIs(name, 'ready'), 30_000);
      const b = other ?? (await site.spawnApi({ port: a.port }));
      if (!other) spawned.push(b.child);
      const repeat = await call(b.url, 'POST', '/v1/tenants', { body: { name }, ...(key ? { key } : {}) });
      await expectTheRunsSecrets(name, repeat);
      if (key) {
        expect(repeat.headers.get('idempotent-replayed')).toBe('true');
        // The key keeps that answer: another repeat with it is the same answer.
        const again = await call(b.url, 'POST', '/v1/tenants', { body: { name }, key });
        expect(again.status, again.text).toBe(201);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(again.body.dns.tsig_secret).toBe(repeat.body.dns.tsig_secret);
        expect(again.body.api_token).toBe(repeat.body.api_token);
      }
      // Collected once: a create of the ready tenant without its secrets is the spec's 409.
      const later = await call(b.url, 'POST', '/v1/tenants', { body: { name } });
      expect(later.status, later.text).toBe(409);
      b.child.kill('SIGTERM');
    },
    120_000,
  );
});

describe('the API process serving a delete is killed mid-call (SIGKILL)', () => {
  it('the repeat at another API process answers 204, a later delete 404', async () => {
    expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'lostd1' } }), 201, site.logs);
    site.backends.proxmox.removeTenantNetwork('lostd1');
    const a = await api();
    site.backends.minio.faults.add({ latencyMs: 1_500 });
    const first = call(a.url, 'DELETE', '/v1/tenants/lostd1').catch((e: Error) => e);
    await waitFor(() => tenantIs('lostd1', 'deleting'), 20_000);
    a.child.kill('SIGKILL');
    expect(await first).toBeInstanceOf(Error);
    site.backends.minio.faults.clear();
    await waitFor(() => tenantIs('lostd1', undefined), 30_000);
    const b = await api();
    const repeat = await call(b.url, 'DELETE', '/v1/tenants/lostd1');
    expect(repeat.status, repeat.text).toBe(204);
    const later = await call(b.url, 'DELETE', '/v1/tenants/lostd1');
    expect(later.status, later.text).toBe(404);
    b.child.kill('SIGTERM');
  }, 120_000);
});

describe('the API process serving a create loses Temporal (503) while the run goes on', () => {
  it.each([
    ['without a key', 'lostt1', undefined],
    ['with its Idempotency-Key', 'lostt2', 'key-lostt2'],
  ] as const)(
    "%s: the repeat at another API process answers the run's secrets",
    async (_how, name, key) => {
      const a = await api({ TEMPORAL_ADDRESS: proxy.hostPort });
      proxy.setDown(false);
      const first = await createInFlight(a.url, name, key);
      proxy.setDown(true);
      const lost = await first.answer;
      site.backends.minio.faults.clear();
      expect(lost, String(lost)).not.toBeInstanceOf(Error);
      expect((lost as Answer).status, (lost as Answer).text).toBe(503);
      await waitFor(() => tenantIs(name, 'ready'), 30_000);
      const b = await api();
      const repeat = await call(b.url, 'POST', '/v1/tenants', { body: { name }, ...(key ? { key } : {}) });
      await expectTheRunsSecrets(name, repeat);
      if (key) expect(repeat.headers.get('idempotent-replayed')).toBe('true');
      // The instance that answered 503 has nothing of it left to hand out.
      proxy.setDown(false);
      const atFirst = await call(a.url, 'POST', '/v1/tenants', { body: { name } });
      expect(atFirst.status, atFirst.text).toBe(409);
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
    },
    120_000,
  );
});
