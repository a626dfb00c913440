import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporalCli } from '../../temporal/dev-server.js';
import { ensureSweepSchedule } from '../../temporal/schedules.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { createTenant, faulted } from '../support/lab-calls.js';
import { runIds } from '../../contracts/ids.js';
import { expectStatus } from '../support/answer.js';

/**
 * A run explains itself to a platform engineer with the real `temporal` CLI alone, decoding
 * payloads through the service's codec endpoint as the UI does: each step its own activity with
 * its attempts and duration, the failed step findable while parked and after a resume, the
 * backend's answer in the decoded failure, and refusals told apart from successes. A run parked
 * past its timeout ending Failed is test/workflows/attempts.test.ts's.
 */
const run = promisify(execFile);
let site: TestSite;

/** The CLI as an engineer runs it after pasting the lab's `export TEMPORAL_...` line. */
async function cli(s: TestSite, ...args: string[]): Promise<string> {
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: s.config.env.TEMPORAL_ADDRESS,
    TEMPORAL_NAMESPACE: s.namespace,
    TEMPORAL_CODEC_ENDPOINT: `${s.url}/codec`,
    // The decode-only token, as the lab prints it: reading runs needs nothing more.
    TEMPORAL_CODEC_AUTH: `Bearer ${s.codecToken}`,
  };
  const { stdout } = await run(temporalCli(process.cwd()), args, { env, maxBuffer: 32 * 1024 * 1024 });
  return stdout;
}

/**
 * The CLI's JSON with each payload's data (base64 of what the codec decoded: a summary, a failure's
 * message and stack, a result) read as the JSON it is, as the CLI's text output and the UI show it.
 */
const json = async <T = any>(s: TestSite, ...args: string[]): Promise<T> => readPayloads(JSON.parse(await cli(s, ...args, '-o', 'json'))) as T;

function readPayloads(node: any): any {
  if (Array.isArray(node)) return node.map(readPayloads);
  if (node === null || typeof node !== 'object') return node;
  if (typeof node.data === 'string' && typeof node.metadata?.encoding === 'string') {
    const encoding = Buffer.from(node.metadata.encoding, 'base64').toString();
    if (encoding === 'json/plain') return JSON.parse(Buffer.from(node.data, 'base64').toString());
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, readPayloads(v)]));
}

interface HistoryEvent {
  eventType: string;
  eventId: string;
  eventTime: string;
  [attributes: string]: any;
}

const history = async (s: TestSite, workflowId: string) => (await json<{ events: HistoryEvent[] }>(s, 'workflow', 'show', '-w', workflowId)).events;

/** Each activity of a history: its type, summary, attempts, and start-to-close time. */
function activities(events: HistoryEvent[]) {
  const byScheduled = new Map<string, { type: string; summary?: string; attempt: number; ms?: number; failed?: any; started?: number }>();
  for (const e of events) {
    const at = Date.parse(e.eventTime);
    if (e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED') {
      byScheduled.set(e.eventId, { type: e.activityTaskScheduledEventAttributes.activityType.name, summary: e.userMetadata?.summary, attempt: 0 });
    } else if (e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_STARTED') {
      const a = byScheduled.get(e.activityTaskStartedEventAttributes.scheduledEventId)!;
      a.attempt = e.activityTaskStartedEventAttributes.attempt;
      a.started = at;
    } else if (e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED') {
      const a = byScheduled.get(e.activityTaskCompletedEventAttributes.scheduledEventId)!;
      a.ms = at - a.started!;
    } else if (e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_FAILED') {
      const a = byScheduled.get(e.activityTaskFailedEventAttributes.scheduledEventId)!;
      a.failed = e.activityTaskFailedEventAttributes.failure;
    }
  }
  return [...byScheduled.values()];
}

beforeAll(async () => {
  // A parked timeout of its own, which the parking timer is seen to carry (the setting reaches the run).
  site = await startTestSite({ env: { PARKED_RUN_TIMEOUT: '1h' } });
});
afterAll(async () => {
  await site?.stop();
});

describe('a create, read with the temporal CLI through the codec', () => {
  it('lists each step as its own activity, in order, with its summary, attempt and duration', async () => {
    const created = await createTenant(site, 'cli');
    const steps = activities(await history(site, runIds.tenantCreate('cli'))).filter((a) => a.type.endsWith('.ensure'));
    expect(steps.map((a) => a.type)).toEqual(created.steps.map((s: { name: string }) => `${s.name}.ensure`));
    for (const a of steps) {
      expect(a.summary).toBe('tenant cli');
      expect(a.attempt).toBe(1);
      expect(a.ms).toBeGreaterThanOrEqual(0);
    }
    const described = await json(site, 'workflow', 'describe', '-w', runIds.tenantCreate('cli'));
    const text = JSON.stringify(described);
    expect(text).toContain('create tenant cli');
    expect(text).toMatch(/"index":\s*\d+/);
  });

  it('finds a create parked after a failed step by Step, says why in its details, and shows the backend answer', async () => {
    const failed = await faulted(site.backends.minio.faults, { failNext: 1000, status: 503, match: '/minio/admin' }, () =>
      site.call('POST', '/v1/tenants', { body: { name: 'clif' } }),
    );
    expect(failed.status).toBe(502);
    // The API's answer names only the step.
    expect(failed.body.error).toBe('backend step "state" failed');

    const parked = await json<any[]>(site, 'workflow', 'list', '--query', `TenantName='clif' AND Step='state' AND ExecutionStatus='Running'`);
    expect(parked.map((w) => w.execution.workflowId)).toEqual([runIds.tenantCreate('clif')]);
    // What the UI shows as the run's current details.
    expect(await cli(site, 'workflow', 'metadata', '-w', runIds.tenantCreate('clif'))).toMatch(/Parked after step `state` failed; waiting until \d{4}-/);

    const events = await history(site, runIds.tenantCreate('clif'));
    const state = activities(events).find((a) => a.type === 'state.ensure')!;
    // Temporal's own retry policy: three attempts, then the step failed.
    expect(state.attempt).toBe(3);
    const failure = JSON.stringify(state.failed);
    expect(failure).toContain('backend step \\"state\\" failed');
    // Decoded through the codec: which backend, the call and what it answered.
    expect(failure).toMatch(/minio/);
    expect(failure).toMatch(/503/);
    expect(failure).toContain('/minio/admin');
    // The parking timer says what it waits for, and waits the site's PARKED_RUN_TIMEOUT.
    const timer = events.find((e) => e.eventType === 'EVENT_TYPE_TIMER_STARTED' && JSON.stringify(e.userMetadata ?? {}).includes('parked'));
    expect(timer?.timerStartedEventAttributes?.startToFireTimeout).toBe('3600s');

    const resumed = await site.call('POST', '/v1/tenants', { body: { name: 'clif' } });
    expect(resumed.status, resumed.text).toBe(200);
    await waitFor(
      async () => (await json<any[]>(site, 'workflow', 'list', '--query', `TenantName='clif' AND ExecutionStatus='Completed'`)).length === 1,
      10_000,
    );
    // After the resume, the past failure is still searchable.
    const past = await json<any[]>(site, 'workflow', 'list', '--query', `FailedSteps='state' AND ExecutionStatus='Completed'`);
    expect(past.map((w) => w.execution.workflowId)).toContain(runIds.tenantCreate('clif'));
  });

  it('tells a refused delete (409) apart from a successful one', async () => {
    const refused = await site.call('DELETE', '/v1/tenants/cli');
    expect(refused.status).toBe(409);
    const list = await json<any[]>(site, 'workflow', 'list', '--query', `TenantName='cli' AND Operation='tenant-delete' AND Outcome='refused'`);
    expect(list.map((w) => w.execution.workflowId)).toEqual([runIds.tenantDelete('cli')]);
    const ok = await json<any[]>(site, 'workflow', 'list', '--query', `TenantName='cli' AND Operation='tenant-create' AND Outcome='created'`);
    expect(ok).toHaveLength(1);
  });

  it('works with the codec for show, describe, stack, query, metadata, result and schedule describe', async () => {
    site.backends.minio.faults.add({ failNext: 1000, match: '/minio/admin' });
    try {
      expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'clis' } }), 502, site.logs);
    } finally {
      site.backends.minio.faults.clear();
    }
    const id = runIds.tenantCreate('clis');
    expect(await cli(site, 'workflow', 'stack', '-w', id)).toMatch(/serveAttempts|parkBetweenAttempts|condition/);
    expect(await cli(site, 'workflow', 'query', '-w', id, '--type', '__stack_trace')).toMatch(/serveAttempts|parkBetweenAttempts|condition/);
    expect(await cli(site, 'workflow', 'metadata', '-w', id)).toMatch(/attempt/);
    expect(await cli(site, 'workflow', 'describe', '-w', id)).toContain('create tenant clis');
    const result = await json(site, 'workflow', 'result', '-w', runIds.tenantCreate('cli'));
    expect(JSON.stringify(result)).toContain('"outcome":"created"');
    await ensureSweepSchedule(site.client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 3_600_000 });
    const schedule = await cli(site, 'schedule', 'describe', '-s', runIds.reconcileSweepSchedule);
    expect(schedule).toContain('reconcileSweep');
  });

  it("finds the sweep's reconciles by TenantName and Operation, like an operator's", async () => {
    const sweep = await site.client.workflow.execute('reconcileSweep', { workflowId: `sweep-${Date.now()}`, taskQueue: site.config.env.TEMPORAL_TASK_QUEUE });
    expect(sweep.reconciled).toContain('cli');
    const children = await json<any[]>(site, 'workflow', 'list', '--query', `TenantName='cli' AND Operation='tenant-reconcile'`);
    expect(children.map((w) => w.execution.workflowId)).toContain(runIds.tenantReconcile('cli'));
  });
});
