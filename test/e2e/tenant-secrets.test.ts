import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHistory } from '../support/history.js';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * Secrets never reach Temporal history, logs, reads or error bodies in clear text, nor what the
 * payload codec reveals of history to anyone with codec access.
 */
let site: TestSite;
const secrets = new Set<string>();
const answers: string[] = [];

function collect(t: any) {
  for (const v of [t?.dns?.tsig_secret, t?.state?.secret_key, t?.api_token, t?.log?.ingest_token, t?.log?.read_token, t?.dashboard?.password]) {
    if (typeof v === 'string' && v.length >= 8) secrets.add(v);
  }
}

beforeAll(async () => {
  site = await startTestSite();
  const created = await site.call('POST', '/v1/tenants', { body: { name: 'sec' } });
  expect(created.status).toBe(201);
  collect(created.body);
  site.backends.minio.faults.add({ failNext: 1000, match: '/minio/admin' });
  const failed = await site.call('POST', '/v1/tenants', { body: { name: 'secf' } });
  site.backends.minio.faults.clear();
  expect(failed.status).toBe(502);
  collect(failed.body.tenant);
  const resumed = await site.call('POST', '/v1/tenants', { body: { name: 'secf' } });
  collect(resumed.body);
  const reconciled = await site.call('POST', '/v1/tenants/sec/reconcile');
  collect(reconciled.body);
  for (const path of ['/v1/tenants', '/v1/tenants/sec', '/v1/tenants/secf']) answers.push((await site.call('GET', path)).text);
  answers.push(failed.text.replace(JSON.stringify(failed.body.tenant), ''));
});
afterAll(async () => {
  await site?.stop();
});

describe('secrets', () => {
  it('were issued (the scan below has something to find)', () => {
    expect(secrets.size).toBeGreaterThanOrEqual(10);
  });

  it('never appear in Temporal history, raw, base64 or decoded through the codec, in any run of the namespace', async () => {
    let runs = 0;
    let decoded = 0;
    for await (const w of site.client.workflow.list()) {
      runs++;
      const h = await runHistory(site, { workflowId: w.workflowId, runId: w.runId });
      decoded += h.payloads;
      for (const bytes of [h.raw, h.decoded]) {
        for (const s of secrets) {
          expect(bytes.includes(Buffer.from(s)), `${w.workflowId} holds a secret`).toBe(false);
          expect(bytes.includes(Buffer.from(Buffer.from(s).toString('base64'))), `${w.workflowId} holds a secret (base64)`).toBe(false);
        }
      }
      // The decoding worked: the runs' payloads name their tenant.
      expect(h.decoded.includes(Buffer.from(w.workflowId.split('/')[1]!)), w.workflowId).toBe(true);
    }
    // create (sec), create with its resume (secf), reconcile (sec).
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(decoded).toBeGreaterThan(10);
  });

  it('are not revealed by the codec endpoint, which decodes the rest for engineers (operator token only)', async () => {
    const { history } = await site.temporal.workflowService.getWorkflowExecutionHistory({
      namespace: site.namespace,
      execution: { workflowId: 'tenant-create/sec' },
    });
    const payloads = history!.events!.flatMap((e) => e.workflowExecutionUpdateCompletedEventAttributes?.outcome?.success?.payloads ?? []);
    expect(payloads.length).toBeGreaterThan(0);
    const wire = payloads.map((p) => ({
      metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
      data: Buffer.from(p.data!).toString('base64'),
    }));
    const denied = await site.call('POST', '/codec/decode', { body: { payloads: wire }, token: null });
    expect(denied.status).toBe(401);
    const r = await site.call('POST', '/codec/decode', { body: { payloads: wire } });
    expect(r.status).toBe(200);
    const decoded = Buffer.from(r.body.payloads[0].data, 'base64').toString();
    // The create's answer as the workflow gave it: the tenant in clear, its secrets only sealed.
    expect(JSON.parse(decoded)).toMatchObject({ kind: 'ready', outcome: 'created', tenant: { name: 'sec' }, secrets: expect.stringMatching(/^k1:/) });
    expect([...secrets].some((s) => decoded.includes(s))).toBe(false);
  });

  it('never appear in reads, error bodies or the service log', () => {
    for (const s of secrets) {
      for (const a of answers) expect(a.includes(s)).toBe(false);
      expect(site.logs.some((l) => l.includes(s))).toBe(false);
    }
  });
});
