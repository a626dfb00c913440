import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from '../../db/schema/index.js';
import type { Db } from '../../db/registry.js';
import { sql } from 'drizzle-orm';
import { recordSdnLockTake, recordSdnLockToken, sdnLockTakeAnswered, sdnLockTokensHeld } from '../../db/queries/sdn-lock-tokens.js';
import { lostTakeMs, newTakeMarker } from '../../backends/proxmox/sdn-lock.js';
import { BackendError } from '../../core/backend-outcome.js';
import { deriveIdentity } from '../../core/identity.js';
import { networkStep } from '../../activities/network/step.js';
import { labNetworkAdapter } from '../support/pve-lab.js';
import type { TenantStepContext } from '../../activities/tenant-step-module.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createProxmoxSimulator, type ProxmoxSimulator } from '../../apps/lab/simulators/proxmox/index.js';
import type { PveRelease } from '../../apps/lab/simulators/proxmox/release.js';
import { freshDatabase } from '../support/database.js';

/**
 * The network step (registry locks, the adapter, the registry's SDN lock tokens) against Proxmox VE
 * 8 (no global SDN lock: the writes and the apply carry no token) and 9 (the lock), with the fabric
 * shared with people (issue 45): an admin's staged edits stop the step with the reason and what to
 * do; a lock the service did not take is never released; one a dead worker of the service left is.
 */
const TOKEN_ID = 'svc@pve!provision';
const SECRET = '5d1e2a90-0c41-4a7e-b0a7-6f7d2b8e9c33';
const plan = { supernet: '10.128.0.0/16', vrfVniBase: 10000, vnetVniBase: 100000, domain: 'lab.example', logAccountBase: 1000 };

let client: postgres.Sql;
let db: Db;
beforeAll(async () => {
  client = postgres(await freshDatabase(), { max: 4, onnotice: () => {} });
  db = drizzle(client, { schema }) as Db;
});
afterAll(async () => {
  await client?.end();
});

/** The lab adapter's calls are bounded by the default backend timeout (10 s): a lost take is old after 30 s. */
const LOST_TAKE_S = lostTakeMs(10_000) / 1000;

describe.each([8, 9] as PveRelease[])('the network step on Proxmox VE %i', (release) => {
  let sim: ProxmoxSimulator;
  let server: RunningServer;
  let step: (name: string, index: number) => Promise<Array<{ object: string; result: string }>>;

  /** A person at the API, as the GUI or pvesh call it. */
  async function admin(method: string, path: string, params: Record<string, string | number> = {}): Promise<{ status: number; data: unknown }> {
    const res = await fetch(`${server.url}/api2/json${path}`, {
      method,
      headers: { authorization: `PVEAPIToken=${TOKEN_ID}=${SECRET}`, 'content-type': 'application/x-www-form-urlencoded' },
      body:
        method === 'GET' || method === 'DELETE'
          ? undefined
          : new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString(),
    });
    return { status: res.status, data: ((await res.json()) as { data: unknown }).data };
  }
  const applyAsAdmin = async () => {
    await admin('PUT', '/cluster/sdn');
    await new Promise((r) => setTimeout(r, 50));
  };

  beforeAll(async () => {
    sim = createProxmoxSimulator({ tokenId: TOKEN_ID, tokenSecret: SECRET, release });
    server = await serveApp(sim.app);
    const network = labNetworkAdapter(server.url, { id: TOKEN_ID, secret: SECRET }, plan);
    step = (name, index) =>
      networkStep.ensure!({ deps: { db, ports: { network } }, tenant: deriveIdentity(plan, name, index) } as unknown as TenantStepContext);
  });
  afterAll(async () => server?.close());

  it('the version named is the release whose SDN API is served', async () => {
    const v = (await admin('GET', '/version')).data as { version: string };
    expect(v.version.split('.')[0]).toBe(String(release));
    expect((await admin('POST', '/cluster/sdn/lock')).status).toBe(release === 8 ? 501 : 200);
    if (release === 9) await admin('DELETE', `/cluster/sdn/lock?force=1`);
  });

  it('creates the tenant network and applies it; a repeat finds it in place', async () => {
    expect((await step('acme', 5)).map((o) => o.result)).toEqual(['created', 'created', 'created']);
    expect(sim.state.sdn.running?.zones.get('acme')).toMatchObject({ type: 'evpn', 'vrf-vxlan': 10005 });
    expect(sim.state.sdn.applied.get('pve1')?.vnets.has('tv05')).toBe(true);
    expect((await step('acme', 5)).map((o) => o.result)).toEqual(['in-place', 'in-place', 'in-place']);
    expect(sim.state.sdn.lockToken).toBeUndefined();
    expect(await sdnLockTokensHeld(db)).toEqual([]);
  });

  it("an admin's staged, unapplied edits fail the step with them as the reason and what to do; applied, the step goes on", async () => {
    await admin('POST', '/cluster/sdn/zones', { zone: 'lab', type: 'simple' });
    await admin('POST', '/cluster/sdn/vnets', { vnet: 'labnet', zone: 'lab' });
    const err = (await step('beta', 6).catch((e: unknown) => e)) as BackendError;
    expect(err).toBeInstanceOf(BackendError);
    expect(err.retryable).toBe(false);
    expect(err.detail).toMatch(/pending changes the service did not make: zone lab \(new\), vnet labnet \(new\)\. An apply would apply them with the tenant's/);
    expect(err.detail).toMatch(/Datacenter > SDN > Apply, or `pvesh set \/cluster\/sdn`\) or rolls them back \(PVE 9: `pvesh create \/cluster\/sdn\/rollback`/);
    expect(sim.state.sdn.running?.zones.has('lab')).toBe(false);
    await applyAsAdmin();
    expect((await step('beta', 6)).map((o) => o.result)).toEqual(['created', 'created', 'created']);
  });

  it("a token without SDN.Allocate: the step fails at once with PVE's refusal, nothing written", async () => {
    sim.state.privileges = { '/': ['SDN.Audit', 'Sys.Audit'] };
    try {
      const err = (await step('zeta', 11).catch((e: unknown) => e)) as BackendError;
      expect(err.retryable).toBe(false);
      expect(err.detail).toMatch(/-> 403 Permission check failed \(\/sdn, SDN\.Allocate\)/);
      expect(sim.state.sdn.config.zones.has('zeta')).toBe(false);
      expect(sim.state.sdn.lockToken).toBeUndefined();
    } finally {
      delete sim.state.privileges;
    }
  });

  it.runIf(release === 9)('an admin who rolls back instead: the step goes on, and nothing of theirs is applied', async () => {
    await admin('POST', '/cluster/sdn/zones', { zone: 'trial', type: 'simple' });
    expect(await step('gamma', 7).catch((e: unknown) => (e as BackendError).detail)).toMatch(/zone trial \(new\)/);
    expect((await admin('POST', '/cluster/sdn/rollback')).status).toBe(200);
    expect((await step('gamma', 7)).map((o) => o.result)).toEqual(['created', 'created', 'created']);
    expect(sim.state.sdn.running?.zones.has('trial')).toBe(false);
  });

  it.runIf(release === 9)('a lock another tool took is never released: the step fails to be retried, and goes on once they release it', async () => {
    const theirs = (await admin('POST', '/cluster/sdn/lock')).data as string;
    const err = (await step('delta', 8).catch((e: unknown) => e)) as BackendError;
    expect(err.retryable).toBe(true);
    expect(err.detail).toMatch(/locked by someone else .*which the service did not take/);
    expect(sim.state.sdn.lockToken).toBe(theirs);
    expect(sim.state.sdn.config.zones.has('delta')).toBe(false);
    await admin('DELETE', `/cluster/sdn/lock?lock-token=${theirs}`);
    expect((await step('delta', 8)).map((o) => o.result)).toEqual(['created', 'created', 'created']);
  });

  it.runIf(release === 9)('a lock a worker of the service took and did not release (it died) is released with the token on record', async () => {
    const left = (await admin('POST', '/cluster/sdn/lock')).data as string;
    await recordSdnLockToken(db, left);
    await recordSdnLockToken(db, '0190f0f0-0000-7000-8000-000000000000'); // an older one, long released
    expect((await step('echo', 9)).map((o) => o.result)).toEqual(['created', 'created', 'created']);
    expect(sim.state.sdn.lockToken).toBeUndefined();
    expect(await sdnLockTokensHeld(db)).toEqual([]);
  });

  it.runIf(release === 9)(
    "a lock taken by a take whose answer was lost (its worker died mid-call) is released by force once the take is old; a fresh one's is waited for",
    async () => {
      const marker = newTakeMarker();
      await recordSdnLockTake(db, marker);
      // PVE granted the take; the worker died before it could record the token.
      const lost = (await admin('POST', '/cluster/sdn/lock')).data as string;
      // Younger than its bound (a few seconds under it): it may still be answering, so the lock is not touched.
      for (const age of [0, LOST_TAKE_S - 5]) {
        await db.execute(sql`update sdn_lock_tokens set taken_at = now() - make_interval(secs => ${age}) where token = ${marker}`);
        const err = (await step('foxtrot', 10).catch((e: unknown) => e)) as BackendError;
        expect(err.detail).toMatch(/locked by someone else/);
        expect(sim.state.sdn.lockToken).toBe(lost);
      }
      await db.execute(sql`update sdn_lock_tokens set taken_at = now() - make_interval(secs => ${LOST_TAKE_S + 1}) where token = ${marker}`);
      expect((await step('foxtrot', 10)).map((o) => o.result)).toEqual(['created', 'created', 'created']);
      expect(sim.state.sdn.lockToken).toBeUndefined();
      expect(await db.execute(sql`select token from sdn_lock_tokens`)).toEqual([]);
    },
  );

  it.runIf(release === 9)(
    'an old take that never answered and held nothing is forgotten at the next take: a later lock of a person is not mistaken for it',
    async () => {
      const marker = newTakeMarker();
      await recordSdnLockTake(db, marker);
      await db.execute(sql`update sdn_lock_tokens set taken_at = now() - make_interval(secs => ${LOST_TAKE_S + 1}) where token = ${marker}`);
      expect((await step('golf', 11)).map((o) => o.result)).toEqual(['created', 'created', 'created']);
      expect(await db.execute(sql`select token from sdn_lock_tokens`)).toEqual([]);
      const theirs = (await admin('POST', '/cluster/sdn/lock')).data as string;
      const err = (await step('hotel', 12).catch((e: unknown) => e)) as BackendError;
      expect(err.detail).toMatch(/locked by someone else/);
      expect(sim.state.sdn.lockToken).toBe(theirs);
      await admin('DELETE', `/cluster/sdn/lock?lock-token=${theirs}`);
    },
  );
});

const tokenRows = async () => ((await db.execute(sql`select token from sdn_lock_tokens order by token`)) as unknown as { token: string }[]).map((r) => r.token);

/**
 * A take's record (backends/proxmox/sdn-lock.ts): its marker before the take is asked, then, once
 * PVE answered, its token on record and the marker gone in one change.
 */
describe('an SDN lock take on record', () => {
  it('answered: the token is held and the marker gone; answered again, still one token', async () => {
    await recordSdnLockTake(db, 'taking:a1');
    expect(await tokenRows()).toEqual(['taking:a1']);
    await sdnLockTakeAnswered(db, 'taking:a1', 'pve-token-a1');
    expect(await tokenRows()).toEqual(['pve-token-a1']);
    expect(await sdnLockTokensHeld(db)).toEqual(['pve-token-a1']);
    await sdnLockTakeAnswered(db, 'taking:a1', 'pve-token-a1');
    expect(await tokenRows()).toEqual(['pve-token-a1']);
  });

  it("leaves other takes' markers and tokens as they are", async () => {
    await recordSdnLockTake(db, 'taking:b1');
    await recordSdnLockTake(db, 'taking:b2');
    await sdnLockTakeAnswered(db, 'taking:b1', 'pve-token-b1');
    expect(await tokenRows()).toEqual(['pve-token-a1', 'pve-token-b1', 'taking:b2']);
    await db.execute(sql`delete from sdn_lock_tokens`);
  });
});
