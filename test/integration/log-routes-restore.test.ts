import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startLogGateway, type RunningLogGateway } from '../../apps/lab/servers/log-gateway.js';
import { createLogStoreAdapter, type LogStoreAdapter, type LogStoreSpec } from '../../backends/caddy/caddy.js';
import { BackendError } from '../../core/backend-outcome.js';
import { fresh } from '../support/fresh-http.js';

/**
 * The route keeper's write (issue 45 item 3) against the real Caddy: every tenant route the gateway
 * lost, back in one write (one config reload for all, not one per route), on the condition that
 * nobody changed the routes since they were read (Caddy's ETag as If-Match), so an operator's edit
 * made meanwhile is never overwritten.
 */
const N = 200;
let gw: RunningLogGateway;
let logs: LogStoreAdapter;
const token = () => randomBytes(24).toString('base64url');
const specs: LogStoreSpec[] = Array.from({ length: N }, (_, i) => ({ tenant: `t${i}`, accountId: 2000 + i, ingestToken: token(), readToken: token() }));
const routes = async () => JSON.parse((await fresh(`${gw.caddy.adminUrl}/config/apps/http/servers/logs/routes`)).text) as { '@id'?: string }[];
/** A tenant's shipper sending one line (again on a reset connection, as a shipper does): its status. */
const ship = async (s: LogStoreSpec): Promise<number> =>
  (await fresh(`${gw.endpoint}/insert/jsonline`, { method: 'POST', headers: { Authorization: `Bearer ${s.ingestToken}` }, body: '{"_msg":"x"}', resend: true }))
    .status;

beforeAll(async () => {
  gw = await startLogGateway();
  logs = createLogStoreAdapter({ adminUrl: gw.adminUrl, upstream: gw.upstream, endpoint: gw.endpoint });
  // The routes as the tenants' steps left them, in one write too (this test is not about those).
  await logs.restoreRoutes(specs);
});
afterAll(async () => {
  await gw?.stop();
});

describe('restoring lost routes', () => {
  it(`puts back all ${N} tenants' routes in one write after Caddy lost them`, async () => {
    expect(await ship(specs[7]!)).toBeLessThan(300);
    expect(await logs.holdsRoute('t7')).toBe(true);
    // Started again without --resume: the bootstrap config, as after a reload of the Caddyfile.
    await gw.caddy.restart({ resume: false });
    expect(await ship(specs[7]!)).toBe(401);
    // The keeper's look: one small read by @id says the routes are gone.
    expect(await logs.holdsRoute('t7')).toBe(false);
    expect(await logs.lackingRoutes(specs.map((s) => s.tenant))).toHaveLength(N);
    const patchesBefore = gw.faults.seen('/routes');
    const t0 = Date.now();
    expect(await logs.restoreRoutes(specs)).toHaveLength(N);
    console.log(`${N} tenants' routes restored in ${Date.now() - t0} ms`);
    // One read and one write.
    expect(gw.faults.seen('/routes') - patchesBefore).toBe(2);
    // Caddy answers the write once the new config runs, but a connection made just then can still
    // be taken by the server it replaces, which closes its listener after (a CI run: one 401 right
    // after the write): a shipper sends again, and is let in within moments. Routes never written
    // would keep answering 401.
    const letIn = async (s: LogStoreSpec) => {
      const until = Date.now() + 5_000;
      let status = await ship(s);
      while (status >= 300 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
        status = await ship(s);
      }
      return status;
    };
    expect(await letIn(specs[7]!)).toBeLessThan(300);
    expect(await letIn(specs[N - 1]!)).toBeLessThan(300);
    expect(await logs.holdsRoute('t7')).toBe(true);
    const after = await routes();
    expect(after).toHaveLength(2 * N + 1);
    // The catch-all stays last: every tenant route is reachable.
    expect(after.at(-1)?.['@id']).toBe('svc-logs-unauthorized');
    expect(await logs.restoreRoutes(specs)).toEqual([]);
  });

  it("an operator's edit between the read and the write: refused (412, retried next round), the edit kept", async () => {
    await gw.caddy.restart({ resume: false });
    const held = gw.faults.hold({ method: 'PATCH', match: '/routes' });
    const restoring = logs.restoreRoutes(specs.slice(0, 3)).catch((e: unknown) => e);
    await held.reached;
    const operatorRoute = { '@id': 'operator-health', match: [{ path: ['/healthz'] }], handle: [{ handler: 'static_response', status_code: 200 }] };
    const edit = await fresh(`${gw.caddy.adminUrl}/config/apps/http/servers/logs/routes/0`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(operatorRoute),
    });
    expect(edit.status).toBe(200);
    held.release();
    const failed = await restoring;
    expect(failed).toBeInstanceOf(BackendError);
    expect(failed).toMatchObject({ status: 412, retryable: true });
    expect((await routes()).map((r) => r['@id'])).toEqual(['operator-health', 'svc-logs-unauthorized']);
    // The next round reads again and keeps the edit.
    expect(await logs.restoreRoutes(specs.slice(0, 3))).toEqual(['t0', 't1', 't2']);
    expect((await routes()).map((r) => r['@id'])).toContain('operator-health');
    expect(await ship(specs[1]!)).toBeLessThan(300);
  });
});
