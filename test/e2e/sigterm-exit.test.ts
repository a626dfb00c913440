import type { ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { API_STOP_BOUND_MS } from '../../apps/api/stop-bound.js';
import { WORKER_STOP_BOUND_MS } from '../../apps/worker/worker.js';
import { waitForActivityPollers } from '../support/history.js';
import { siteForFile, waitFor } from '../support/site.js';

/**
 * Every process exits on SIGTERM within its drain bound (issue 42 item 3): the worker and the API,
 * each a process of its own, after serving calls that opened every kind of handle they hold (the
 * registry's pool, Temporal, the broker's control connection, the backends' kept HTTP connections,
 * the metrics listeners). A process that logs it stopped but keeps a handle open never exits.
 */
const site = siteForFile({}, 120_000);

/** Each process's stop bound, and a moment for the signal and the exit to travel. */
const WORKER_BOUND_MS = WORKER_STOP_BOUND_MS + 1_000;
const API_BOUND_MS = API_STOP_BOUND_MS + 1_000;

/** SIGTERM, then how the process ended and how long it took; SIGKILL (and `timedOut`) past `boundMs`. */
async function terminate(child: ChildProcess, boundMs: number): Promise<{ code: number | null; signal: string | null; ms: number; timedOut: boolean }> {
  const started = Date.now();
  const ended = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.exitCode !== null || child.signalCode !== null
      ? r({ code: child.exitCode, signal: child.signalCode })
      : child.once('exit', (code, signal) => r({ code, signal })),
  );
  child.kill('SIGTERM');
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, boundMs);
  const end = await ended;
  clearTimeout(timer);
  return { ...end, ms: Date.now() - started, timedOut };
}

describe('SIGTERM', () => {
  it('the worker and the API, having served tenants and broker accounts, each exit 0 within its drain bound', async () => {
    await site().stopWorker();
    const worker = site().spawnWorker({ WORKER_METRICS_ADDRESS: '127.0.0.1:0' });
    await waitForActivityPollers(site(), [`${worker.pid}@${hostname()}`]);
    const api = await site().spawnApi({ port: 0, env: { METRICS_ADDRESS: '127.0.0.1:0' } });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${api.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${site().operatorToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const tenant = await call('POST', '/v1/tenants', { name: 'term' });
    expect(tenant.status, tenant.text).toBe(201);
    // The broker's control connection is opened by the first broker command the worker sends.
    const account = await call('POST', '/v1/tenants/term/broker-accounts', { name: 'app', publish: ['status'], subscribe: [] });
    expect(account.status, account.text).toBe(201);

    const [w, a] = await Promise.all([terminate(worker, WORKER_BOUND_MS), terminate(api.child, API_BOUND_MS)]);
    const how = (r: typeof w, bound: number) => (r.timedOut ? `still running after ${bound} ms` : { code: r.code, signal: r.signal });
    expect({ worker: how(w, WORKER_BOUND_MS), api: how(a, API_BOUND_MS) }).toEqual({ worker: { code: 0, signal: null }, api: { code: 0, signal: null } });
    await site().startWorker();
  });

  it('the API exits 0 within its bound while a call waits on a run (an isolation check no worker serves)', async () => {
    await site().stopWorker();
    const api = await site().spawnApi({ port: 0 });
    try {
      let answered = false;
      const check = fetch(`${api.url}/v1/isolation-checks`, { method: 'POST', headers: { authorization: `Bearer ${site().operatorToken}` } })
        .then((r) => r.arrayBuffer())
        .catch(() => undefined)
        .finally(() => (answered = true));
      // The check's run is started and the call waits for its result, which no worker makes.
      await waitFor(
        async () =>
          (await site()
            .client.workflow.getHandle('isolation-check')
            .describe()
            .catch(() => undefined)) !== undefined,
        20_000,
      );
      await new Promise((r) => setTimeout(r, 500));
      expect(answered).toBe(false);
      const a = await terminate(api.child, API_BOUND_MS);
      expect(a.timedOut ? `still running after ${API_BOUND_MS} ms` : { code: a.code, signal: a.signal }).toEqual({ code: 0, signal: null });
      await check;
    } finally {
      await site()
        .client.workflow.getHandle('isolation-check')
        .terminate('test over')
        .catch(() => undefined);
      await site().startWorker();
    }
  });
});
