import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NONE, tenantObjects } from '../support/backend-objects.js';
import { hangingProxy, type HangingProxy } from '../support/hanging-proxy.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { expectStatus } from '../support/answer.js';

/**
 * A tenant delete whose answer was lost: the API lost Temporal while the delete's run went on (the
 * worker still reached it), so the call answered 503 "repeat the call", and the run deleted the
 * tenant. The repeat, as the 503 asks, is answered 204 (that run's answer), not the 404 of a tenant
 * already gone: the caller learns its delete happened. A later delete is a plain 404 again.
 * Here the API is a process of its own whose Temporal connection goes through a proxy that is taken
 * down; the worker reaches Temporal directly.
 */
let site: TestSite;
let proxy: HangingProxy;
let api: { child: ChildProcess; url: string };
beforeAll(async () => {
  site = await startTestSite({ minimal: true });
  proxy = await hangingProxy();
  const [host, port] = site.config.env.TEMPORAL_ADDRESS.split(':');
  proxy.target = { host: host!, port: Number(port) };
  api = await site.spawnApi({ env: { TEMPORAL_ADDRESS: proxy.hostPort } });
}, 120_000);
afterAll(async () => {
  site?.backends.minio.faults.clear();
  await proxy?.close();
  await site?.stop();
});

async function del(name: string): Promise<{ status: number; text: string; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${api.url}/v1/tenants/${name}`, { method: 'DELETE', headers: { authorization: `Bearer ${site.operatorToken}` } });
  return { status: res.status, text: await res.text(), ms: Date.now() - started };
}

describe('a tenant delete answered 503 while its run went on', () => {
  it('the repeat answers 204 (the run deleted it), a later delete 404', async () => {
    const created = await site.call('POST', '/v1/tenants', { body: { name: 'lostdel' } });
    expect(created.status, created.text).toBe(201);
    site.backends.proxmox.removeTenantNetwork('lostdel');
    // The state-store step is slow, so the run is in flight when the API loses Temporal.
    site.backends.minio.faults.add({ latencyMs: 2_000 });
    const first = del('lostdel');
    await waitFor(async () => (await site.registry.sql`select 1 from tenants where name = 'lostdel' and status = 'deleting'`).length === 1, 20_000);
    proxy.setDown(true);
    const lost = await first;
    site.backends.minio.faults.clear();
    expect(lost.status, lost.text).toBe(503);
    expect(JSON.parse(lost.text)).toEqual({ error: 'provisioning is unavailable right now; repeat the call' });
    // The run finished without the API: the tenant is gone.
    await waitFor(async () => (await site.registry.sql`select 1 from tenants where name = 'lostdel'`).length === 0, 30_000);
    const run = await site.client.workflow.getHandle('tenant-delete/lostdel').describe();
    expect(run.status.name).toBe('COMPLETED');

    proxy.setDown(false);
    const repeat = await del('lostdel');
    expect(repeat.status, repeat.text).toBe(204);
    expect(await tenantObjects(site, 'lostdel', created.body.index)).toEqual(NONE);
    // Collected once: the next delete of the name is answered as any delete of an absent tenant.
    const later = await del('lostdel');
    expect(later.status, later.text).toBe(404);
  }, 120_000);

  it("a delete lost before it reached Temporal is attempted afresh on the repeat, not answered by the name's earlier delete", async () => {
    // A tenant deleted: its name's last delete run completed with 'deleted'.
    expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'relost' } }), 201, site.logs);
    site.backends.proxmox.removeTenantNetwork('relost');
    expect((await del('relost')).status).toBe(204);
    // The name again; the fabric carries this one's zone.
    const created = await site.call('POST', '/v1/tenants', { body: { name: 'relost' } });
    expect(created.status, created.text).toBe(201);
    proxy.setDown(true);
    const lost = await del('relost');
    expect(lost.status, lost.text).toBe(503);
    proxy.setDown(false);
    // The repeat runs the delete, which the fabric refuses: not the 204 of the earlier run.
    const repeat = await del('relost');
    expect(repeat.status, repeat.text).toBe(409);
    expect((await site.call('GET', '/v1/tenants/relost')).body.status).toBe('ready');
  }, 120_000);
});
