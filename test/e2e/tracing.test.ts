import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { findSecrets } from '../support/secret-forms.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';

/**
 * OpenTelemetry traces: with OTEL_EXPORTER_OTLP_ENDPOINT set, the API and the worker export spans
 * over OTLP/HTTP; this test is the collector. One trace follows a create from the HTTP request
 * through the Temporal client, the workflow and its activities to each backend call, its trace_id
 * is in the request's log lines, and no secret is in any span.
 */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano?: string;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
}

let site: TestSite;
let stopped = false;
let receiver: Server;
/**
 * The tenant's name, random and as long as the pattern allows (8), is the scan's canary: its runs' workflow ids are span attributes
 * (`temporalWorkflowId`), so a scan that cannot find it could not find a secret either.
 */
const CANARY = `t${[...randomBytes(7)].map((b) => 'abcdefghijklmnopqrstuvwxyz'[b % 26]).join('')}`;
const bodies: string[] = [];
const spans: OtlpSpan[] = [];

/** OTLP/JSON ids are hex; some encoders send base64. */
const hex = (id: string | undefined) => (id === undefined || id === '' ? undefined : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex'));

function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/v1/traces' && req.method === 'POST') {
        bodies.push(text);
        const body = JSON.parse(text) as { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }> };
        for (const rs of body.resourceSpans ?? [])
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? []) {
              spans.push({ ...s, traceId: hex(s.traceId)!, spanId: hex(s.spanId)!, parentSpanId: hex(s.parentSpanId) });
            }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => receiver.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}`)));
}

const attr = (s: OtlpSpan, key: string) => s.attributes?.find((a) => a.key === key)?.value;

beforeAll(async () => {
  const endpoint = await startReceiver();
  site = await startTestSite({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
});

afterAll(async () => {
  if (!stopped) await site?.stop();
  await new Promise<void>((r) => receiver?.close(() => r()));
});

describe('a traced create', () => {
  let created: Awaited<ReturnType<TestSite['call']>>;
  let traceId: string;
  let trace: OtlpSpan[];

  beforeAll(async () => {
    created = await site.call('POST', '/v1/tenants', { body: { name: CANARY } });
    expect(created.status).toBe(201);
    // Spans leave in batches (every 500 ms): wait for the HTTP span and the backend calls under it.
    await waitFor(() => spans.some((s) => s.name === 'POST /v1/tenants' && s.kind === 2), 30_000);
    traceId = spans.find((s) => s.name === 'POST /v1/tenants')!.traceId;
    await waitFor(() => {
      trace = spans.filter((s) => s.traceId === traceId);
      return ['caddy', 'grafana', 'powerdns', 'pdns-recursor', 'minio', 'proxmox'].every((b) => trace.some((s) => attr(s, 'backend')?.stringValue === b));
    }, 30_000);
  });

  it('is one trace from the HTTP request through the client and the workflow to the activities', () => {
    const names = trace.map((s) => s.name);
    const http = trace.find((s) => s.name === 'POST /v1/tenants')!;
    expect(http.parentSpanId).toBeUndefined();
    expect(attr(http, 'http.route')?.stringValue).toBe('/v1/tenants');
    expect(
      names.some((n) => /^(UpdateWithStartWorkflow|StartWorkflow):/.test(n)),
      names.join(', '),
    ).toBe(true);
    expect(names).toContain('RunWorkflow:tenantCreate');
    expect(names.filter((n) => n.startsWith('RunActivity:')).length).toBeGreaterThan(0);
  });

  it('has the steps as activity spans with each backend call as a child', () => {
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const activityOf = (s: OtlpSpan): OtlpSpan | undefined => {
      for (let p = s.parentSpanId && byId.get(s.parentSpanId); p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) {
        if (p.name.startsWith('RunActivity:')) return p;
      }
      return undefined;
    };
    const calls = trace.filter((s) => attr(s, 'backend') !== undefined);
    expect(calls.length).toBeGreaterThan(6);
    for (const call of calls) {
      expect(call.kind, call.name).toBe(3); // client
      expect(activityOf(call), `${call.name} runs inside an activity of the trace`).toBeDefined();
    }
    // One activity per step (`<step>.ensure`, design §4): every step is its own span, and each
    // backend call is a child of the step that made it (or of the fabric read before the steps).
    const started = (s: OtlpSpan) => BigInt(s.startTimeUnixNano ?? '0');
    const inOrder = [...trace].sort((a, b) => (started(a) < started(b) ? -1 : started(a) > started(b) ? 1 : 0));
    const stepSpans = inOrder.map((s) => /^RunActivity:([a-z-]+)\.ensure$/.exec(s.name)?.[1]).filter(Boolean);
    expect(stepSpans).toEqual(['dns', 'resolver', 'state', 'network', 'log-store', 'dashboards']);
    for (const call of calls) expect(activityOf(call)!.name).toMatch(/^RunActivity:([a-z-]+\.ensure|network\.observe-indexes)$/);
  });

  it('puts the trace_id into the log lines of the request', () => {
    const lines = site.logs.filter((l) => l.includes(`"trace_id":"${traceId}"`));
    expect(lines.some((l) => l.includes('"path":"/v1/tenants"') && l.includes('"status":201'))).toBe(true);
  });

  it('carries no secret in any span, in any encoding, after both processes flushed every span', async () => {
    const b = created.body;
    const secrets = new Map(
      Object.entries({
        api_token: b.api_token,
        tsig_secret: b.dns.tsig_secret,
        state_secret: b.state.secret_key,
        log_ingest_token: b.log.ingest_token,
        log_read_token: b.log.read_token,
        dashboard_password: b.dashboard.password,
        operator_token: site.operatorToken,
      }) as [string, string][],
    );
    expect([...secrets.values()].every((s) => typeof s === 'string' && s.length >= 8)).toBe(true);
    // Stopping the site flushes the worker's and the API's exporters: every span is in.
    const before = bodies.length;
    await site.stop();
    stopped = true;
    expect(bodies.length).toBeGreaterThanOrEqual(before);
    const exported = bodies.join('\n');
    // The positive control: the canary, in its plain form, is found where the runs name it.
    expect(findSecrets(exported, 'spans', new Map([['canary', CANARY]]))).toEqual(['canary in spans']);
    // Raw, base64 and base64url at each alignment, hex, URL-encoded (test/support/secret-forms.ts).
    expect(findSecrets(exported, 'spans', secrets)).toEqual([]);
    expect(exported).not.toMatch(/Bearer |authorization/i);
  });
});
