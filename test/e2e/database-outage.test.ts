import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createLogger } from '../../apps/api/logger.js';
import { startApi, type RunningApi } from '../../apps/api/server.js';
import { loadConfig } from '../../apps/config/env.js';
import { waitFor } from '../support/site.js';
import { HEALTHY, MIGRATING, READY, UNREACHABLE } from '../support/health-answers.js';

/**
 * The API and its database (spec rule 7, service routes; design §5): it starts while the database
 * is away and migrates when it comes; /v1 answers 503 until then; /readyz tells unreachable from
 * migrating; /healthz never touches the database; an outage later is survived and recovered from.
 * The database is reached through a TCP proxy this test can refuse, cut, stall and restore.
 */
type Mode = 'pass' | 'refuse' | 'stall';

/** A TCP proxy in front of PostgreSQL. `refuse` closes the listener (connections are refused). */
class DbProxy {
  private server: Server = createServer((client) => this.accept(client));
  private sockets = new Set<Socket>();
  mode: Mode = 'pass';
  port = 0;
  /** Connections accepted while stalled: shows a request really waited on a silent database. */
  stalled = 0;

  constructor(private readonly upstream: { host: string; port: number }) {}

  async listen(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(this.port, '127.0.0.1', r));
    this.port = (this.server.address() as { port: number }).port;
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    // A stalled database: the connection is accepted and nothing ever answers.
    if (this.mode === 'stall') {
      this.stalled += 1;
      return;
    }
    const server = createConnection(this.upstream);
    this.sockets.add(server);
    server.on('close', () => {
      this.sockets.delete(server);
      client.destroy();
    });
    server.on('error', () => server.destroy());
    client.on('close', () => server.destroy());
    client.pipe(server);
    server.pipe(client);
  }

  /** Every open connection dropped and new ones refused, as when the database host goes away. */
  async cut(): Promise<void> {
    this.mode = 'refuse';
    const closed = new Promise<void>((r) => this.server.close(() => r()));
    for (const s of this.sockets) s.destroy();
    await closed;
    this.server = createServer((client) => this.accept(client));
  }

  /** Connections accepted but never answered; open ones dropped. */
  async stall(): Promise<void> {
    if (this.mode === 'refuse') await this.listen();
    this.mode = 'stall';
    for (const s of this.sockets) s.destroy();
  }

  async restore(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (this.mode === 'refuse') await this.listen();
    this.mode = 'pass';
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (this.server.listening) await new Promise<void>((r) => this.server.close(() => r()));
  }
}

const OPERATOR = `op-${randomBytes(12).toString('hex')}`;
const EGRESS = `eg-${randomBytes(12).toString('hex')}`;
const NOT_MIGRATED = '{"error":"database not migrated yet"}';

let proxy: DbProxy;
let api: RunningApi;
let direct: string;
let admin: postgres.Sql;
const logs: string[] = [];

async function get(path: string, token?: string) {
  const res = await fetch(`${api.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  // An empty database (not the migrated template): the migration really runs through the proxy.
  const base = new URL(inject('pgBaseUrl'));
  const name = `${inject('dbTemplate').replace(/_template$/, '')}_outage_${randomBytes(3).toString('hex')}`;
  admin = postgres(base.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  direct = url.toString();

  proxy = new DbProxy({ host: url.hostname, port: Number(url.port || 5432) });
  await proxy.listen();
  await proxy.cut();
  const viaProxy = new URL(url);
  viaProxy.port = String(proxy.port);

  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
  const config = loadConfig({ OPERATOR_TOKEN: OPERATOR, EGRESS_AGENT_TOKEN: EGRESS, DATABASE_URL: viaProxy.toString(), LISTEN_ADDRESS: '127.0.0.1:0' });
  api = await startApi({ config, log: createLogger('info', 'outage-test', sink) });
});

afterAll(async () => {
  await api?.close();
  await proxy?.close();
  await admin?.end();
});

describe('starting while the database is away', () => {
  let holder: postgres.ReservedSql | undefined;
  let holderPool: postgres.Sql | undefined;

  afterAll(async () => {
    holder?.release();
    await holderPool?.end();
  });

  it('is alive, not ready (unreachable), and /v1 answers 503 not migrated', async () => {
    expect(await get('/healthz')).toEqual({ status: 200, text: HEALTHY });
    expect(await get('/readyz')).toEqual({ status: 503, text: UNREACHABLE });
    expect(await get('/v1/fabric/egress', EGRESS)).toEqual({ status: 503, text: NOT_MIGRATED });
    expect(await get('/v1/tenants', OPERATOR)).toEqual({ status: 503, text: NOT_MIGRATED });
  });

  it('while another process holds the migration lock, /readyz says migrating and /v1 stays 503', async () => {
    // Another replica migrating: the migration advisory lock is held on this one connection.
    holderPool = postgres(direct, { max: 1, onnotice: () => {} });
    holder = await holderPool.reserve();
    await holder`select pg_advisory_lock(7240001)`;
    await proxy.restore();
    await waitFor(async () => (await get('/readyz')).text === MIGRATING, 10_000);
    expect(await get('/readyz')).toEqual({ status: 503, text: MIGRATING });
    expect(await get('/v1/fabric/egress', EGRESS)).toEqual({ status: 503, text: NOT_MIGRATED });
    expect(await get('/healthz')).toEqual({ status: 200, text: HEALTHY });
  });

  it('once the lock is released the schema is migrated: ready, and /v1 serves', async () => {
    await holder!`select pg_advisory_unlock(7240001)`;
    await waitFor(async () => (await get('/readyz')).status === 200, 10_000);
    expect(await get('/readyz')).toEqual({ status: 200, text: READY });
    expect(await get('/v1/fabric/egress', EGRESS)).toEqual({ status: 200, text: '{"vrfs":[]}' });
    // Past the migration gate, an instance without a site answers its tenant routes 501.
    expect(await get('/v1/tenants', OPERATOR)).toEqual({ status: 501, text: '{"error":"no site configured"}' });
    const [schema] = await holder!`select to_regclass('public.tenants')::text as tenants`;
    expect(schema!.tenants).toBe('tenants');
  });

  it('the migration leaves its advisory lock released', async () => {
    // This database's lock: an advisory lock is taken per database, and another file's process
    // migrating its own database at this moment holds the same key there (a CI run counted it).
    const held =
      await holder!`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 7240001 and granted and database = (select oid from pg_database where datname = current_database())`;
    expect(held[0]!.n).toBe(0);
  });
});

describe('an outage after start', () => {
  it('a cut database: /readyz 503 unreachable, /healthz 200, the process keeps serving', async () => {
    await proxy.cut();
    await waitFor(async () => (await get('/readyz')).status === 503, 10_000);
    expect(await get('/readyz')).toEqual({ status: 503, text: UNREACHABLE });
    expect(await get('/healthz')).toEqual({ status: 200, text: HEALTHY });
    // A /v1 read fails cleanly, naming no host and no driver error.
    const read = await get('/v1/fabric/egress', EGRESS);
    expect(read).toEqual({ status: 503, text: '{"error":"database unavailable; repeat the call"}' });
    // Authentication happens before any query, and needs none for the operator.
    expect(await get('/v1/fabric/egress')).toEqual({ status: 401, text: '{"error":"unauthorized"}' });
  });

  it('restored: ready again, and /v1 serves', async () => {
    await proxy.restore();
    // Waits for the event; the bound only keeps a broken recovery from hanging the suite.
    await waitFor(async () => (await get('/readyz')).status === 200, 30_000);
    expect(await get('/readyz')).toEqual({ status: 200, text: READY });
    expect(await get('/v1/fabric/egress', EGRESS)).toEqual({ status: 200, text: '{"vrfs":[]}' });
  });

  it('a stalled database: /readyz answers 503 (no hang), /healthz 200 without touching it', async () => {
    await proxy.stall();
    // The pooled connections were dropped: the first ping may fail at once on one of them.
    await waitFor(async () => (await get('/readyz')).status === 503, 10_000);
    // An answer at all (not a hang) is the behaviour; how fast is the bench's to say.
    const ready = await get('/readyz');
    expect(ready).toEqual({ status: 503, text: UNREACHABLE });
    expect(proxy.stalled).toBeGreaterThan(0);
    // /healthz never touches the database: it opens no connection to the stalled one.
    const stalledBefore = proxy.stalled;
    expect(await get('/healthz')).toEqual({ status: 200, text: HEALTHY });
    expect(proxy.stalled).toBe(stalledBefore);
    await proxy.restore();
    await waitFor(async () => (await get('/readyz')).status === 200, 15_000);
    expect(await get('/v1/fabric/egress', EGRESS)).toEqual({ status: 200, text: '{"vrfs":[]}' });
  });

  it('the reasons went to the log with the request id, not into answers', () => {
    const notReady = logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'not ready');
    expect(notReady.length).toBeGreaterThan(0);
    for (const l of notReady) expect(typeof l.request_id).toBe('string');
  });
});
