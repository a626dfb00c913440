import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from '../../db/schema/index.js';
import type { Db } from '../../db/registry.js';
import { deriveIdentity } from '../../core/identity.js';
import { ALONE, type NetworkAdapter } from '../../backends/proxmox/sdn.js';
import { networkSpec, networkStep } from '../../activities/network/step.js';
import type { TenantStepContext } from '../../activities/tenant-step-module.js';
import { labNetworkAdapter } from '../support/pve-lab.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createProxmoxSimulator, type ProxmoxSimulator } from '../../apps/lab/simulators/proxmox/index.js';
import { freshDatabase } from '../support/database.js';

/**
 * The network step's registry connections while tenants wait for an apply round. Each waiting
 * tenant holds a pooled connection in the transaction that waits for the round's lock, and the
 * round's holder holds one: with as many tenants at the fabric as the pool has connections, the
 * pool is theirs. A round that then needed another pooled connection (its gather asking the
 * registry who is still on the way) waited for one that only its own end would free: every create
 * of the worker stood still until the waiters' lock bound (4 min), and with them every registry
 * call of the worker (a CI run's `fabric-group-commit` test: three creates' workflow tasks
 * heartbeating on registry activities for a minute, its worker's pool of 4).
 */
const TOKEN_ID = 'svc@pve!provision';
const SECRET = '7f3c1b20-8d4e-4c55-a1f2-9e0d6b4a3c21';
const plan = { supernet: '10.128.0.0/16', vrfVniBase: 10000, vnetVniBase: 100000, domain: 'lab.example', logAccountBase: 1000 };
const POOL = 3;
/** The first apply's length: the next round's gather may wait 1.2 × that for the callers it carried. */
const HOLD_MS = 2_000;

let sim: ProxmoxSimulator;
let server: RunningServer;
let pool: postgres.Sql;
let own: postgres.Sql;
let watcher: postgres.Sql;
let deps: { db: Db; ownConnection: Db };
beforeAll(async () => {
  sim = createProxmoxSimulator({ tokenId: TOKEN_ID, tokenSecret: SECRET });
  server = await serveApp(sim.app);
  const url = await freshDatabase();
  // As the worker's registry: a pool, and a connection of its own beside it (db/registry.ts).
  pool = postgres(url, { max: POOL, onnotice: () => {} });
  own = postgres(url, { max: 1, onnotice: () => {} });
  watcher = postgres(url, { max: 1, onnotice: () => {} });
  deps = { db: drizzle(pool, { schema }) as Db, ownConnection: drizzle(own, { schema }) as Db };
});
afterAll(async () => {
  await Promise.all([pool?.end(), own?.end(), watcher?.end()]);
  await server?.close();
});

const ensure = (network: NetworkAdapter, name: string, index: number) =>
  networkStep.ensure!({ deps: { ...deps, ports: { network } }, tenant: deriveIdentity(plan, name, index) } as unknown as TenantStepContext);

describe('tenants at the fabric as many as the pool has connections', () => {
  it('a gathering round still applies: it asks the registry on a connection the waiters cannot hold', async () => {
    const network = labNetworkAdapter(server.url, { id: TOKEN_ID, secret: SECRET }, plan, { applyTimeoutMs: 4 * HOLD_MS });
    // An apply that carried four tenants and took HOLD_MS: the next round gathers for four callers.
    const first = ['poola', 'poolb', 'poolc', 'poold'].map((name, i) => deriveIdentity(plan, name, 40 + i));
    const specs = first.map(networkSpec);
    const staged = await Promise.all(specs.map((s) => network.stage(s)));
    const apply = sim.faults.hold({ method: 'PUT', match: '/cluster/sdn' });
    const carrying = network.settle(specs[0]!, staged[0]!, ALONE);
    await apply.reached;
    await new Promise((r) => setTimeout(r, HOLD_MS));
    apply.release();
    expect((await carrying)[1]?.batch).toEqual({ applied: 'by this tenant', tenants: 4 });

    // Three creates reach the fabric: one holds the round and gathers, two wait for it, each on a pooled connection.
    let waitingMost = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const [row] = await watcher<
          { n: number }[]
        >`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`;
        waitingMost = Math.max(waitingMost, row!.n);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const started = Date.now();
    const outcomes = await Promise.all(['poole', 'poolf', 'poolg'].map((name, i) => ensure(network, name, 44 + i)));
    const ms = Date.now() - started;
    watching = false;
    await watch;
    console.log(`fabric pool: ${POOL} connections, at most ${waitingMost} waiting for the round at once; the three creates' network steps took ${ms} ms`);
    // The window was hit: the round's holder and POOL - 1 waiters held the whole pool at once.
    expect(waitingMost).toBeGreaterThanOrEqual(POOL - 1);
    const batches = outcomes.map((o) => o[1]?.batch);
    expect(batches).toContainEqual({ applied: 'by this tenant', tenants: 3 });
    expect(batches.filter((b) => b !== undefined && 'applied' in b && b.applied === 'by another tenant')).toHaveLength(2);
    for (const name of ['poole', 'poolf', 'poolg']) expect(sim.state.sdn.running?.zones.has(name)).toBe(true);
    // The gather's bound (1.2 × the first apply) and the apply, not the waiters' four-minute lock bound.
    expect(ms).toBeLessThan(15_000);
  }, 60_000);
});
