import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendError } from '../../core/backend-outcome.js';
import { PveApi } from '../../backends/proxmox/pve-api.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createProxmoxSimulator } from '../../apps/lab/simulators/proxmox/index.js';

/**
 * Older Proxmox VE answers a failure with `{"data": null}` and the die text in the HTTP reason
 * phrase only (pve-http-server's AnyEvent.pm sets the status line from the message's first line;
 * the body's `message` came later). The adapter keeps that text for the log (issue 17, item 9).
 */
const TOKEN_ID = 'svc@pve!provision';
const SECRET = 'c2a0e6f4-51d3-4d0f-9a66-0b6f0f1d7e21';
let server: RunningServer;
let pve: PveApi;

beforeAll(async () => {
  const sim = createProxmoxSimulator({ tokenId: TOKEN_ID, tokenSecret: SECRET, legacyErrors: true });
  server = await serveApp(sim.app);
  pve = new PveApi({ apiUrl: server.url, tokenId: TOKEN_ID, tokenSecret: SECRET, taskTimeoutMs: 2_000 });
});
afterAll(async () => server?.close());

describe('an error text in the reason phrase only', () => {
  it('the simulator in legacy mode sends no message, the text in the status line', async () => {
    const res = await fetch(`${server.url}/api2/json/nodes/pve1/qemu/777/config`, { headers: { authorization: `PVEAPIToken=${TOKEN_ID}=${SECRET}` } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ data: null });
    expect(res.statusText).toBe("Configuration file 'nodes/pve1/qemu-server/777.conf' does not exist");
  });

  it('is kept in the BackendError detail for the log', async () => {
    const err = (await pve.get('/nodes/pve1/qemu/777/config').catch((e: unknown) => e)) as BackendError;
    expect(err).toBeInstanceOf(BackendError);
    expect(err.detail).toBe("GET /nodes/pve1/qemu/777/config -> 500 Configuration file 'nodes/pve1/qemu-server/777.conf' does not exist");
  });

  it("a 401's reason (no body at all) is kept too", async () => {
    const bad = new PveApi({ apiUrl: server.url, tokenId: TOKEN_ID, tokenSecret: 'wrong', taskTimeoutMs: 2_000 });
    const err = (await bad.get('/version').catch((e: unknown) => e)) as BackendError;
    expect(err.detail).toBe('GET /version -> 401 invalid token value!');
  });
});
