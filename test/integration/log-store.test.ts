import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startLogGateway, type RunningLogGateway } from '../../apps/lab/servers/log-gateway.js';
import { createLogStoreAdapter, type LogStoreAdapter, type LogStoreSpec } from '../../backends/caddy/caddy.js';
import { selectHeaderName } from '../../backends/caddy/routes.js';
import { BackendError } from '../../core/backend-outcome.js';
import { fresh } from '../support/fresh-http.js';
import { logStoreStep } from '../../activities/log-store/step.js';
import type { ActivityDeps } from '../../activities/deps.js';
import type { TenantStepContext } from '../../activities/tenant-step-module.js';
import type { TenantIdentity } from '../../core/identity.js';
import type { TenantSecrets } from '../../core/tenant-view.js';
import { Registry } from '../../db/registry.js';
import { freshDatabase } from '../support/database.js';

// The log-store adapter against the real Caddy gateway (Debian's caddy, driven through its admin
// API) in front of a VictoriaLogs stand-in that records the tenant headers it receives. Every
// request below is real HTTP to Caddy: the entries the adapter writes must give each tenant exactly
// its own account, ingest write-only to project 0, read-only to projects 0-2.

let gw: RunningLogGateway;
let logs: LogStoreAdapter;

const token = () => randomBytes(24).toString('base64url');
const spec = (tenant: string, accountId: number): LogStoreSpec => ({ tenant, accountId, ingestToken: token(), readToken: token() });
const acme = spec('acme', 1001);
const bravo = spec('bravo', 1002);

function ship(t: string, lines: object[], headers: Record<string, string> = {}) {
  return fresh(`${logs.endpoint}/insert/jsonline`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${t}`, ...headers },
    body: lines.map((l) => JSON.stringify(l)).join('\n'),
    resend: true,
  });
}

async function read(t: string, headers: Record<string, string> = {}) {
  const res = await fresh(`${logs.endpoint}/select/logsql/query?query=*`, { headers: { Authorization: `Bearer ${t}`, ...headers } });
  const ok = res.status >= 200 && res.status < 300;
  const msgs = ok
    ? res.text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { _msg: string })._msg)
    : [];
  return { status: res.status, msgs };
}

const routesPath = '/config/apps/http/servers/logs/routes';
/** Straight to Caddy's admin API: what an operator's edit behind the service does. */
/**
 * A call to Caddy's admin API on a connection of its own: Caddy replaces its admin server after
 * every change, and a kept-alive connection then meets the old one's close (ECONNRESET).
 */
async function adminCall(method: string, path: string, body?: unknown) {
  const r = await fresh(gw.caddy.adminUrl + path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, json: async (): Promise<unknown> => JSON.parse(r.text) };
}

const adapterFor = (timeoutMs?: number) => createLogStoreAdapter({ adminUrl: gw.adminUrl, upstream: gw.upstream, endpoint: gw.endpoint, timeoutMs });
const faults = (plan: object | null) => fetch(`${gw.adminUrl}/__lab/faults`, plan ? { method: 'POST', body: JSON.stringify(plan) } : { method: 'DELETE' });

beforeAll(async () => {
  gw = await startLogGateway();
  logs = adapterFor();
});

afterAll(async () => {
  await gw?.stop();
});

describe('ensure', () => {
  it('creates both token entries, then finds them in place', async () => {
    expect(await logs.ensure(acme)).toEqual([
      { object: 'log ingest token acme', result: 'created' },
      { object: 'log read token acme', result: 'created' },
    ]);
    expect(await logs.ensure(acme)).toEqual([
      { object: 'log ingest token acme', result: 'in-place' },
      { object: 'log read token acme', result: 'in-place' },
    ]);
    expect(await logs.observe(acme)).toEqual({ ingest: 'matches', read: 'matches' });
    await logs.ensure(bravo);
  });

  it('exposes the endpoint and the select header name', () => {
    expect(logs.endpoint).toBe(gw.endpoint);
    expect(logs.selectHeader).toBe('X-Log-Project');
  });

  it('outcome descriptions carry no secret', async () => {
    const out = JSON.stringify(await logs.ensure(acme));
    expect(out).not.toContain(acme.ingestToken);
    expect(out).not.toContain(acme.readToken);
  });
});

describe('token isolation', () => {
  beforeAll(async () => {
    expect((await ship(acme.ingestToken, [{ _msg: 'acme workload' }])).status).toBe(200);
    expect((await ship(bravo.ingestToken, [{ _msg: 'bravo workload' }])).status).toBe(200);
    // What the substrate and the devices' bridge publish, written straight to the store.
    gw.logs.set('1001:1', [{ _time: '2026-01-01T00:00:00.000Z', _msg: 'acme platform', _stream: '{}', fields: {} }]);
    gw.logs.set('1001:2', [{ _time: '2026-01-01T00:00:00.000Z', _msg: 'acme device', _stream: '{}', fields: {} }]);
  });

  it('a reader without the select header gets project 0 of its own account', async () => {
    expect(await read(acme.readToken)).toEqual({ status: 200, msgs: ['acme workload'] });
    expect(await read(bravo.readToken)).toEqual({ status: 200, msgs: ['bravo workload'] });
  });

  it('a reader chooses projects 0, 1 and 2 of its account with the select header', async () => {
    expect((await read(acme.readToken, { 'X-Log-Project': '1001-0' })).msgs).toEqual(['acme workload']);
    expect((await read(acme.readToken, { 'X-Log-Project': '1001-1' })).msgs).toEqual(['acme platform']);
    expect((await read(acme.readToken, { 'X-Log-Project': '1001-2' })).msgs).toEqual(['acme device']);
  });

  it('a select header naming another account, or another project, is refused', async () => {
    expect((await read(acme.readToken, { 'X-Log-Project': '1002-0' })).status).toBe(403);
    expect((await read(acme.readToken, { 'X-Log-Project': '1001-3' })).status).toBe(403);
    expect((await read(bravo.readToken, { 'X-Log-Project': '1001-1' })).status).toBe(403);
  });

  it('the ingest token cannot read and the read token cannot write', async () => {
    expect((await read(acme.ingestToken)).status).toBe(401);
    expect((await ship(acme.readToken, [{ _msg: 'sneaky' }])).status).toBe(401);
    expect(JSON.stringify([...gw.logs.values()])).not.toContain('sneaky');
  });

  it('an ingest token writes only project 0 of its own account, whatever tenant headers it sends', async () => {
    expect((await ship(acme.ingestToken, [{ _msg: 'forged' }], { AccountID: '1002', ProjectID: '2' })).status).toBe(200);
    expect(gw.logs.get('1002:2')).toBeUndefined();
    expect(gw.logs.get('1001:0')?.map((r) => r._msg)).toContain('forged');
    expect((await read(bravo.readToken)).msgs).not.toContain('forged');
  });

  it('made-up tokens are refused for reading and writing', async () => {
    expect((await read(token())).status).toBe(401);
    expect((await ship(token(), [{ _msg: 'x' }])).status).toBe(401);
  });
});

describe('what a request reaches through the tenant routes (real Caddy, the stand-in records the headers)', () => {
  const delta = spec('delta', 1009);
  beforeAll(async () => {
    await logs.ensure(delta);
  });

  type Row = [string, string, string, () => Record<string, string>, number, string | null, string | null];
  const ing = () => ({ Authorization: `Bearer ${delta.ingestToken}` });
  const rd = () => ({ Authorization: `Bearer ${delta.readToken}` });
  const rows: Row[] = [
    // reason, method, path, headers, status, AccountID at VictoriaLogs, ProjectID at VictoriaLogs
    ['ingest token writes project 0 of its account', 'POST', '/insert/jsonline', ing, 200, '1009', '0'],
    ['ingest token cannot pick another account', 'POST', '/insert/jsonline', () => ({ ...ing(), AccountID: '7', ProjectID: '2' }), 200, '1009', '0'],
    ['ingest token cannot read', 'GET', '/select/logsql/query?query=*', ing, 401, null, null],
    ['read token cannot write', 'POST', '/insert/jsonline', rd, 401, null, null],
    ['read without the select header is project 0', 'GET', '/select/logsql/query?query=*', rd, 200, '1009', '0'],
    ['read of project 1 by header', 'GET', '/select/logsql/query?query=*', () => ({ ...rd(), [selectHeaderName]: '1009-1' }), 200, '1009', '1'],
    ['read of project 2 by header', 'GET', '/select/logsql/query?query=*', () => ({ ...rd(), [selectHeaderName]: '1009-2' }), 200, '1009', '2'],
    ['header naming another account is refused', 'GET', '/select/logsql/query?query=*', () => ({ ...rd(), [selectHeaderName]: '1001-0' }), 403, null, null],
    ['header naming an unknown project is refused', 'GET', '/select/logsql/query?query=*', () => ({ ...rd(), [selectHeaderName]: '1009-3' }), 403, null, null],
    ['tenant headers sent by a reader are overridden', 'GET', '/select/logsql/query?query=*', () => ({ ...rd(), AccountID: '1001' }), 200, '1009', '0'],
    [
      "another tenant's read token reads its own account, not this one",
      'GET',
      '/select/logsql/query?query=*',
      () => ({ Authorization: `Bearer ${bravo.readToken}` }),
      200,
      '1002',
      '0',
    ],
    ['unknown token is refused', 'GET', '/select/logsql/query?query=*', () => ({ Authorization: 'Bearer nope' }), 401, null, null],
    ['no token is refused', 'POST', '/insert/jsonline', () => ({}), 401, null, null],
  ];

  it.each(rows)('%s', async (_reason, method, path, headers, status, account, project) => {
    const before = gw.received.length;
    // On a connection of its own, sent again if reset before any answer: the first row comes right
    // after `ensure(delta)` changed Caddy's config (a run: ECONNRESET on connect, test/support/fresh-http.ts).
    const res = await fresh(gw.endpoint + path, { method, headers: headers(), body: method === 'POST' ? '{"_msg":"row"}' : undefined, resend: true });
    expect(res.status).toBe(status);
    const reached = gw.received.slice(before);
    expect(reached.length).toBe(account === null ? 0 : 1);
    if (reached[0]) {
      expect({ account: reached[0].account, project: reached[0].project }).toEqual({ account, project });
      // The gateway's credential and the select header never reach the store.
      expect(reached[0].authorization).toBeNull();
      expect(reached[0].select).toBeNull();
    }
  });
});

describe('drift and rotation', () => {
  it('recreates a deleted entry', async () => {
    await adminCall('DELETE', '/id/svc-logs-acme-read');
    expect(await logs.observe(acme)).toEqual({ ingest: 'matches', read: 'absent' });
    expect((await read(acme.readToken)).status).toBe(401);
    expect(await logs.ensure(acme)).toEqual([
      { object: 'log ingest token acme', result: 'in-place' },
      { object: 'log read token acme', result: 'created' },
    ]);
    expect((await read(acme.readToken)).status).toBe(200);
  });

  it('corrects an entry that was edited to widen it', async () => {
    // Someone drops the select restriction: the route now forwards any project.
    const loose = {
      '@id': 'svc-logs-acme-read',
      match: [{ path: ['/select/*'], header: { Authorization: [`Bearer ${acme.readToken}`] } }],
      handle: [{ handler: 'reverse_proxy', upstreams: [{ dial: gw.upstream }] }],
      terminal: true,
    };
    expect((await adminCall('PATCH', '/id/svc-logs-acme-read', loose)).status).toBe(200);
    expect(await logs.observe(acme)).toEqual({ ingest: 'matches', read: 'drifted' });
    expect((await logs.ensure(acme))[1]).toEqual({ object: 'log read token acme', result: 'corrected', fields: ['route'] });
    expect((await read(acme.readToken, { 'X-Log-Project': '1002-0' })).status).toBe(403);
  });

  it('moves an entry that ended up behind the catch-all, where it never matches', async () => {
    const entry = await (await adminCall('GET', '/id/svc-logs-acme-ingest')).json();
    await adminCall('DELETE', '/id/svc-logs-acme-ingest');
    await adminCall('POST', routesPath, entry);
    expect((await ship(acme.ingestToken, [{ _msg: 'lost' }])).status).toBe(401);
    expect((await logs.ensure(acme))[0]).toEqual({ object: 'log ingest token acme', result: 'corrected', fields: ['position'] });
    expect((await ship(acme.ingestToken, [{ _msg: 'found' }])).status).toBe(200);
    const routes = (await (await adminCall('GET', routesPath)).json()) as Array<{ '@id'?: string }>;
    expect(routes.filter((r) => r['@id'] === 'svc-logs-acme-ingest')).toHaveLength(1);
  });

  it('rotates a token: the new one works, the old one is refused', async () => {
    const old = acme.readToken;
    const rotated = { ...acme, readToken: token() };
    expect((await logs.ensure(rotated))[1]).toEqual({ object: 'log read token acme', result: 'corrected', fields: ['route'] });
    expect((await read(old)).status).toBe(401);
    expect((await read(rotated.readToken)).status).toBe(200);
    acme.readToken = rotated.readToken;
  });
});

describe('remove', () => {
  it('removes both entries, is idempotent, and leaves other tenants alone', async () => {
    const temp = spec('temp', 1003);
    await logs.ensure(temp);
    await logs.remove({ tenant: 'temp' });
    await logs.remove({ tenant: 'temp' });
    expect(await logs.observe(temp)).toEqual({ ingest: 'absent', read: 'absent' });
    expect((await ship(temp.ingestToken, [{ _msg: 'x' }])).status).toBe(401);
    expect((await read(temp.readToken)).status).toBe(401);
    expect((await read(acme.readToken)).status).toBe(200);
  });
});

describe('backend failures', () => {
  it('a failing admin API makes ensure throw a retryable BackendError; repeating resumes', async () => {
    const charlie = spec('charlie', 1004);
    await faults({ fail_next: 1, status: 503, match: '/config/', method: 'PUT' });
    const err = await logs.ensure(charlie).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as BackendError).retryable).toBe(true);
    expect((err as BackendError).detail).not.toContain(charlie.ingestToken);
    expect((await logs.ensure(charlie)).map((o) => o.result)).toEqual(['created', 'created']);
  });

  it('a refusal (4xx) is not retryable', async () => {
    await faults({ fail_next: 1, status: 400, match: '/config/' });
    const err = await logs.ensure(acme).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as BackendError).retryable).toBe(false);
  });

  it('a slow admin API is a failed step, not a hang', async () => {
    const quick = adapterFor(200);
    await faults({ latency_ms: 1000 });
    try {
      await expect(quick.ensure(acme)).rejects.toBeInstanceOf(BackendError);
    } finally {
      await faults(null);
    }
  });
});

describe('many tenants at once', () => {
  /** Every tenant route the gateway holds, by @id. */
  const heldIds = async () =>
    ((await (await adminCall('GET', routesPath)).json()) as Array<{ '@id'?: string }>)
      .map((r) => r['@id'])
      .filter((id): id is string => !!id?.startsWith('svc-logs-crowd'));
  const crowd = (round: number) => Array.from({ length: 8 }, (_, i) => spec(`crowd${round}x${i}`, 2000 + round * 10 + i));

  /**
   * Half the crowd removed while the other half is written, as concurrent deletes and creates on
   * several workers do: Caddy resolves a DELETE by @id before it takes its write lock, so an insert
   * in between makes it remove another tenant's route. The step holds one gateway write at a time;
   * it is called here as the log-store step's own ensure and remove, alternating between two
   * adapters as two workers hold them, so taking the lock out of the step fails this test.
   */
  it('removes and writes concurrently, one gateway write at a time: every tenant keeps exactly its own two routes', async () => {
    const registry = new Registry(await freshDatabase(), undefined, 8);
    const workers = [adapterFor(), adapterFor()];
    const ctx = (t: LogStoreSpec, i: number): TenantStepContext => ({
      deps: { db: registry.db, ports: { logStore: workers[i % 2] } } as unknown as ActivityDeps,
      tenant: { name: t.tenant, logAccountId: t.accountId } as TenantIdentity,
      secrets: { logIngestToken: t.ingestToken, logReadToken: t.readToken } as TenantSecrets,
    });
    try {
      for (let round = 0; round < 3; round++) {
        const [gone, staying] = [crowd(round), crowd(round + 100)];
        for (const t of gone) await logs.ensure(t);
        await Promise.all([...gone.map((t, i) => logStoreStep.remove!(ctx(t, i))), ...staying.map((t, i) => logStoreStep.ensure!(ctx(t, i + 1)))]);
        const want = staying.flatMap((t) => [`svc-logs-${t.tenant}-ingest`, `svc-logs-${t.tenant}-read`]);
        expect((await heldIds()).sort()).toEqual(want.sort());
        for (const t of staying) await logs.remove({ tenant: t.tenant });
      }
    } finally {
      await registry.close();
    }
  });
});

// Caddy reloads its whole config on every change: a fill's tenants, their routes written one
// reload after another, came back to their callers up to ~2.5 s apart (issue 48).
describe('a burst of tenants', () => {
  it("eight tenants' routes asked for together: one or two writes carry them all (two reloads each before)", async () => {
    const registry = new Registry(await freshDatabase(), undefined, 10);
    const worker = adapterFor();
    const burst = Array.from({ length: 8 }, (_, i) => spec(`burst${i}`, 3000 + i));
    const ctx = (t: LogStoreSpec): TenantStepContext => ({
      deps: { db: registry.db, ports: { logStore: worker } } as unknown as ActivityDeps,
      tenant: { name: t.tenant, logAccountId: t.accountId } as TenantIdentity,
      secrets: { logIngestToken: t.ingestToken, logReadToken: t.readToken } as TenantSecrets,
    });
    const writes = () => (['PATCH', 'PUT', 'POST', 'DELETE'] as const).reduce((n, m) => n + gw.faults.seen('/', m), 0);
    try {
      const before = writes();
      const first = gw.faults.hold({ method: 'PATCH', match: routesPath });
      const creating = burst.map((t) => logStoreStep.ensure!(ctx(t)));
      await first.reached;
      // Whoever the first write did not carry asks for its routes while that write is held.
      await new Promise((r) => setTimeout(r, 1_000));
      first.release();
      const outcomes = await Promise.all(creating);
      const written = writes() - before;
      expect(written).toBeGreaterThanOrEqual(1);
      expect(written).toBeLessThanOrEqual(2);
      for (const [i, t] of burst.entries()) {
        expect(outcomes[i]!.map((o) => [o.object, o.result])).toEqual([
          [`log ingest token ${t.tenant}`, 'created'],
          [`log read token ${t.tenant}`, 'created'],
        ]);
        expect(await logs.observe(t)).toEqual({ ingest: 'matches', read: 'matches' });
        expect((await ship(t.ingestToken, [{ _msg: `from ${t.tenant}` }])).status).toBe(200);
      }
      // Asked again, nothing differs: no write.
      const again = await Promise.all(burst.map((t) => logStoreStep.ensure!(ctx(t))));
      expect(again.flat().every((o) => o.result === 'in-place')).toBe(true);
      expect(writes() - before).toBe(written);
    } finally {
      for (const t of burst) await logs.remove({ tenant: t.tenant });
      await registry.close();
    }
  });
});

describe('real Caddy behaviour the adapter relies on', () => {
  it('accepts a second route with the same @id (Caddy 2.6); ensure collapses the duplicates to one', async () => {
    const entry = await (await adminCall('GET', '/id/svc-logs-bravo-read')).json();
    expect((await adminCall('PUT', `${routesPath}/0`, entry)).status).toBe(200);
    expect(await logs.observe(bravo)).toEqual({ ingest: 'matches', read: 'drifted' });
    expect((await logs.ensure(bravo))[1]).toEqual({ object: 'log read token bravo', result: 'corrected', fields: ['position'] });
    const routes = (await (await adminCall('GET', routesPath)).json()) as Array<{ '@id'?: string }>;
    expect(routes.filter((r) => r['@id'] === 'svc-logs-bravo-read')).toHaveLength(1);
    expect((await read(bravo.readToken)).status).toBe(200);
  });

  it('routes written through the admin API survive a restart only with --resume', async () => {
    await gw.caddy.restart({ resume: true });
    expect(await logs.observe(bravo)).toEqual({ ingest: 'matches', read: 'matches' });
    expect((await read(bravo.readToken)).status).toBe(200);

    await gw.caddy.restart({ resume: false });
    expect(await logs.observe(bravo)).toEqual({ ingest: 'absent', read: 'absent' });
    expect((await read(bravo.readToken)).status).toBe(401);
    // The service's next ensure (a reconcile or the sweep) writes them again.
    expect((await logs.ensure(bravo)).map((o) => o.result)).toEqual(['created', 'created']);
    expect((await read(bravo.readToken)).status).toBe(200);
  });
});
