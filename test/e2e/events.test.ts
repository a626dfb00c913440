import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEventRelay } from '../../apps/worker/event-relay.js';
import { startTestSite, type TestSite } from '../support/site.js';
import { expectStatus } from '../support/answer.js';

/**
 * The sweep over REST and as events (issue 47 item 3): a sweep's drift, a parked run and a run that
 * gave up reach a webhook receiver here, signed as Standard Webhooks sign (checked with the
 * scheme's own recipe, not the relay's code), retried with the same id after a failed attempt, and
 * are readable over REST (`/v1/sweeps`, `/v1/events`). Two relays run at once, as two workers
 * would: each event reaches the receiver once with a 2xx.
 */
const SECRET = `whsec_${Buffer.from('a-webhook-secret-of-this-test-0123').toString('base64')}`;
let site: TestSite;
let receiver: Server;
let url: string;
const received: { headers: IncomingHttpHeaders; body: string; answered: number }[] = [];
/** The receiver's answer to each next request; 200 once the list is empty. */
const answers: number[] = [];
const relays: { stop(): Promise<void> }[] = [];

function verify(h: IncomingHttpHeaders, body: string): boolean {
  // Standard Webhooks: v1 = base64(HMAC-SHA256(base64-decoded secret after whsec_, "id.timestamp.body")).
  const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${String(h['webhook-id'])}.${String(h['webhook-timestamp'])}.${body}`)
    .digest('base64');
  return String(h['webhook-signature'] ?? '')
    .split(' ')
    .includes(`v1,${expected}`);
}

async function until<T>(what: string, get: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const deliveredOf = (type: string, match: (data: any) => boolean) =>
  received
    .filter((r) => r.answered === 200)
    .find((r) => {
      const b = JSON.parse(r.body);
      return b.type === type && match(b.data);
    });

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const answered = answers.shift() ?? 200;
      received.push({ headers: req.headers, body, answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  site = await startTestSite({ backendTimeoutMs: 1500 });
  for (let i = 0; i < 2; i++)
    relays.push(
      startEventRelay(
        {
          db: site.registry.db,
          client: site.client,
          log: pino({ level: 'silent' }),
          webhook: { url, secret: SECRET },
          retryDelaysMs: [300, 300],
          timeoutMs: 2000,
        },
        150,
      ),
    );
});
afterAll(async () => {
  await Promise.all(relays.map((r) => r.stop()));
  await site?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('events', () => {
  it("a sweep's drift reaches the webhook signed, retried under the same id after a 500, and the sweep is readable over REST", async () => {
    const created = await site.call('POST', '/v1/tenants', { body: { name: 'evt' } });
    expect(created.status, created.text).toBe(201);
    const w = await site.call('POST', '/v1/tenants/evt/workloads', { body: { name: 'web', cores: 1, memory_mb: 512 } });
    expect(w.status, w.text).toBe(201);
    site.backends.proxmox.state.vms.get(w.body.vmid)!.config.cores = '3';
    answers.push(500);
    const sweep = await site.client.workflow.execute('reconcileSweep', {
      workflowId: 'reconcile-sweep-events',
      taskQueue: site.config.env.TEMPORAL_TASK_QUEUE,
      args: [{ concurrency: 2 }],
    });
    expect(sweep.corrected.evt).toEqual(expect.arrayContaining([expect.stringMatching(/^hypervisor: workload web \(vm \d+\) corrected/)]));

    const ok = await until('the drift delivered', () => deliveredOf('drift.found', (d) => d.tenant === 'evt'));
    const body = JSON.parse(ok.body);
    expect(body).toMatchObject({
      type: 'drift.found',
      timestamp: expect.any(String),
      data: { tenant: 'evt', sweep: { run: 'reconcile-sweep-events', mode: 'correct' } },
    });
    expect(body.data.objects).toEqual(sweep.corrected.evt);
    expect(verify(ok.headers, ok.body)).toBe(true);
    expect(verify(ok.headers, ok.body.replace('evt', 'evu'))).toBe(false);
    // The 500 was the first attempt of the same event: same id, signed afresh.
    const attempts = received.filter((r) => r.headers['webhook-id'] === ok.headers['webhook-id']);
    expect(attempts.map((r) => r.answered)).toEqual([500, 200]);
    for (const a of attempts) expect(verify(a.headers, a.body)).toBe(true);

    const sweeps = await site.call('GET', '/v1/sweeps');
    expect(sweeps.status, sweeps.text).toBe(200);
    expect(sweeps.body.sweeps[0]).toMatchObject({ run: 'reconcile-sweep-events', mode: 'correct', corrected: { evt: sweep.corrected.evt } });
    const feed = await site.call('GET', '/v1/events');
    const drift = feed.body.events.find((e: any) => e.id === ok.headers['webhook-id']);
    expect(drift).toMatchObject({ type: 'drift.found', data: { tenant: 'evt' }, delivery: { attempts: 2, delivered_at: expect.any(String) } });
  });

  it('a parked create reaches the webhook with its failure; the feed pages with after', async () => {
    site.backends.pdns.faults.add({ failNext: 1000, status: 500, match: '/zones' });
    try {
      expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'evtpark' } }), 502, site.logs);
    } finally {
      site.backends.pdns.faults.clear();
    }
    const ok = await until('the parked run delivered', () => deliveredOf('run.parked', (d) => d.run === 'tenant-create/evtpark'));
    expect(JSON.parse(ok.body).data).toMatchObject({
      operation: 'tenant-create',
      tenant: 'evtpark',
      object: 'tenants/evtpark',
      failure: { step: 'dns', backend: 'powerdns' },
    });
    expect(ok.body).not.toMatch(/127\.0\.0\.1|https?:\/\//);
    const all = (await site.call('GET', '/v1/events')).body.events as { seq: number }[];
    const later = await site.call('GET', `/v1/events?after=${all[0]!.seq}&limit=1`);
    expect(later.body.events.map((e: { seq: number }) => e.seq)).toEqual([all[1]!.seq]);
  });

  it('each event reached the receiver once with a 2xx, though two relays ran at once', () => {
    const ok = received.filter((r) => r.answered === 200).map((r) => String(r.headers['webhook-id']));
    expect(ok.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ok).size).toBe(ok.length);
  });

  it('a receiver that keeps failing: the event is given up after the retries, and the feed says so', async () => {
    answers.push(503, 503, 503);
    const r = await site.call('POST', '/v1/tenants', { body: { name: 'evtgone' } });
    expect(r.status).toBe(201);
    site.backends.proxmox.removeTenantNetwork('evtgone');
    await site.client.workflow.execute('reconcileSweep', {
      workflowId: 'reconcile-sweep-events-2',
      taskQueue: site.config.env.TEMPORAL_TASK_QUEUE,
      args: [{ concurrency: 2 }],
    });
    const given = await until('the event given up', async () => {
      const feed = await site.call('GET', '/v1/events?limit=500');
      return (feed.body.events as any[]).find((e) => e.type === 'drift.found' && e.data.tenant === 'evtgone' && e.delivery.given_up_at);
    });
    expect(given.delivery).toMatchObject({ attempts: 3, last_error: 'answered 503' });
  });

  it('the operator only, and a clear 400 for a bad query', async () => {
    expectStatus(await site.call('GET', '/v1/events', { token: null }), 401, site.logs);
    expectStatus(await site.call('GET', '/v1/events?after=-1'), 400, site.logs);
    expectStatus(await site.call('GET', '/v1/sweeps?limit=0'), 400, site.logs);
  });
});
