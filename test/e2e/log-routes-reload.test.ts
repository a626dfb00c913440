import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { createTenant } from '../support/lab-calls.js';
import { gatewayCaddyfile, reloadFromCaddyfile } from '../../apps/lab/servers/caddyfile.js';
import { reportedAddress, WORKER_METRICS_LISTENING } from '../support/reported-address.js';

/**
 * Caddy reloaded by its service manager (issue 45 item 3): the real Caddy runs from its Caddyfile as
 * Debian's unit runs it, and `caddy reload --config Caddyfile` (systemctl reload caddy) replaces the
 * running config, dropping every tenant's routes. The worker (its own process, apps/worker/main.ts)
 * notices within SITE_LOG_ROUTE_CHECK_INTERVAL and writes them back from the registry.
 */
const INTERVAL_S = 2;
let site: TestSite;
let metricsUrl: string;

beforeAll(async () => {
  // Caddy 2.6 names the Caddyfile's server srv0.
  site = await startTestSite({ env: { SITE_LOG_SERVER: 'srv0', SITE_LOG_ROUTE_CHECK_INTERVAL: `${INTERVAL_S}s` }, worker: false });
  const caddy = site.backends.logStore!.caddy;
  await reloadFromCaddyfile(caddy, gatewayCaddyfile(caddy.adminUrl, caddy.url));
  // Port 0: the worker binds its metrics listener, then says where (at info).
  metricsUrl = await reportedAddress(site.spawnWorker({ WORKER_METRICS_ADDRESS: '127.0.0.1:0', LOG_LEVEL: 'info' }), WORKER_METRICS_LISTENING);
}, 180_000);
afterAll(async () => {
  await site?.stop();
});

describe('a Caddy reload drops the tenants’ log routes; the worker writes them back', () => {
  it('the tenant’s ingest token is refused after the reload and admitted again within the interval', async () => {
    const keep = await createTenant(site, 'keep');
    const { endpoint, ingest_token: token } = keep.log as { endpoint: string; ingest_token: string };
    const ingest = async () =>
      (
        await fetch(`${endpoint}/insert/jsonline`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: JSON.stringify({ _msg: 'kept', _time: new Date().toISOString() }),
        })
      ).status;
    expect(await ingest()).toBeLessThan(300);

    const caddy = site.backends.logStore!.caddy;
    await reloadFromCaddyfile(caddy, gatewayCaddyfile(caddy.adminUrl, caddy.url));
    const reloaded = Date.now();
    expect(await ingest()).toBe(401);

    await waitFor(async () => (await ingest()) < 300, (INTERVAL_S + 10) * 1000);
    const back = Date.now() - reloaded;
    console.log(`routes back ${back} ms after the reload (interval ${INTERVAL_S} s)`);
    expect(back).toBeLessThan((INTERVAL_S + 5) * 1000);
    await waitFor(() => site.logs.some((l) => l.includes('log gateway had lost tenant routes')), 5000);
    expect(await (await fetch(metricsUrl)).text()).toMatch(/^provisioning_log_routes_restored_total 1$/m);

    // A deleted tenant's routes are never written back: its tokens stay refused across reloads.
    site.backends.proxmox.removeTenantNetwork('keep');
    const deleted = await site.call('DELETE', '/v1/tenants/keep', { token: keep.api_token });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await ingest()).toBe(401);
    await reloadFromCaddyfile(caddy, gatewayCaddyfile(caddy.adminUrl, caddy.url));
    await new Promise((r) => setTimeout(r, 2 * INTERVAL_S * 1000 + 500));
    expect(await ingest()).toBe(401);
  });
});
