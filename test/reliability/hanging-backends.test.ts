import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hangingProxy, type HangingProxy } from '../support/hanging-proxy.js';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * A backend that hangs in the middle of a step (issue 31 item 3): it accepts the connection and
 * never answers, on new connections and on the ones already open. One case per kind of connection
 * the worker holds: an HTTP API (PowerDNS), the MQTT control channel (Mosquitto's dynamic security
 * plugin), and Kea's control agent. Each step is cut by SITE_BACKEND_TIMEOUT on each attempt, the
 * run fails the step after its attempts, the call answers 502 naming the step (never a hang past
 * its bound, never a 500), and the same call resumes once the backend answers again.
 */
const TIMEOUT_MS = 2000;
/** A call's bound here: the step's three attempts, each cut at TIMEOUT_MS, with their backoff. */
const ANSWER_WITHIN_MS = 40_000;

let site: TestSite;
const proxies: Record<'pdns' | 'broker' | 'kea', HangingProxy> = {} as never;
const call = (method: string, path: string, body?: unknown) => site.call(method, path, { body });

beforeAll(async () => {
  for (const k of ['pdns', 'broker', 'kea'] as const) proxies[k] = await hangingProxy();
  site = await startTestSite({
    backendTimeoutMs: TIMEOUT_MS,
    env: {
      SITE_PDNS_URL: `http://${proxies.pdns.hostPort}/api/v1`,
      SITE_BROKER_URL: `mqtt://${proxies.broker.hostPort}`,
      SITE_DHCP_URL: `http://${proxies.kea.hostPort}/`,
    },
  });
  // The service reaches PowerDNS through the lab's fault proxy; the hang sits in front of it.
  const target = (url: string) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) });
  proxies.pdns.target = target(site.backends.env.SITE_PDNS_URL!);
  proxies.broker.target = target(site.backends.mosquitto!.url);
  proxies.kea.target = target(site.backends.kea!.controlUrl);
  const r = await call('POST', '/v1/tenants', { name: 'hung' });
  expect(r.status, r.text).toBe(201);
  const d = await call('POST', '/v1/tenants/hung/devices', { name: 'probe', trust_class: 'sensor', mac: 'aa:00:00:00:31:03' });
  expect(d.status, d.text).toBe(201);
}, 180_000);

afterAll(async () => {
  await site?.stop();
  await Promise.all(Object.values(proxies).map((p) => p?.close()));
});

/** Sends the call while `proxy` hangs, and how long its answer took. */
async function whileHanging(proxy: HangingProxy, send: () => ReturnType<typeof call>) {
  proxy.setHang(true);
  const started = Date.now();
  try {
    const answer = await send();
    return { answer, ms: Date.now() - started };
  } finally {
    proxy.setHang(false);
  }
}

function expectCutStep(got: { answer: Awaited<ReturnType<typeof call>>; ms: number }, proxy: HangingProxy, step: string) {
  expect(got.answer.status, got.answer.text).toBe(502);
  expect(got.answer.body.error).toBe(`backend step "${step}" failed`);
  // The answer names no backend address (the partial object carries the tenant's own endpoints,
  // which are the lab's loopback addresses: the proxy's is not among them); the spec's text no
  // transport error. What the backend did (a timeout) is the failure's answer, for the caller.
  expect(got.answer.text).not.toContain(proxy.hostPort);
  expect(got.answer.body.error).not.toMatch(/ECONN|timed? ?out|socket/i);
  // Cut by the backend timeout (BackendFailed), or, on a host starved of CPU, by Temporal's heartbeat
  // timeout first (Timeout, workflows/failures.ts): either way the failure says it was a timeout.
  expect(got.answer.body.failure).toMatchObject({ step, reason: expect.stringMatching(/^(BackendFailed|Timeout)$/) });
  expect(got.answer.body.failure.answer).toMatch(/no answer within|timeout/);
  // Each attempt was cut by the backend timeout: the answer comes after at least one cut, never a hang.
  expect(got.ms).toBeGreaterThanOrEqual(TIMEOUT_MS);
  expect(got.ms).toBeLessThan(ANSWER_WITHIN_MS);
  expect(proxy.swallowed, 'the calls met the hang').toBeGreaterThan(0);
}

describe('a backend that hangs in the middle of a step', () => {
  it('HTTP (PowerDNS): the dns step is cut by the timeout, the create answers 502, the repeat resumes', async () => {
    const got = await whileHanging(proxies.pdns, () => call('POST', '/v1/tenants', { name: 'hungdns' }));
    expectCutStep(got, proxies.pdns, 'dns');
    const again = await call('POST', '/v1/tenants', { name: 'hungdns' });
    expect(again.status, again.text).toBe(200);
    expect(again.body.outcome).toBe('resumed');
  });

  it('MQTT control channel (Mosquitto dynsec): the broker step is cut, the issue answers 502 with the password, the repeat resumes', async () => {
    const body = { name: 'app', publish: ['data/#'], subscribe: [] };
    const got = await whileHanging(proxies.broker, () => call('POST', '/v1/tenants/hung/broker-accounts', body));
    expectCutStep(got, proxies.broker, 'broker');
    const password = got.answer.body.broker_account.password;
    const again = await call('POST', '/v1/tenants/hung/broker-accounts', body);
    expect(again.status, again.text).toBe(201);
    expect(again.body.password).toBe(password);
  });

  it("Kea's control agent: the device-address step is cut, the reserve answers 502, the repeat reserves", async () => {
    const got = await whileHanging(proxies.kea, () => call('POST', '/v1/tenants/hung/devices/probe/address', {}));
    expectCutStep(got, proxies.kea, 'device-address');
    // The hang met the step's first read of the router, before an address was chosen: there is no
    // partial address to carry (spec: "where one exists").
    expect(got.answer.body).toMatchObject({ error: 'backend step "device-address" failed', failure: { step: 'device-address' } });
    const again = await call('POST', '/v1/tenants/hung/devices/probe/address', {});
    expect(again.status, again.text).toBe(201);
    const held = (await site.call('GET', '/v1/tenants/hung/devices/probe/address')).body;
    expect(held).toMatchObject({ device: 'probe', address: again.body.address });
  });
});
