import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Faults } from '../../apps/lab/simulators/faults.js';
import { FAILED_STEPS, OUTCOME } from '../../core/search-attributes.js';
import { pausingBroker } from '../support/mosquitto.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { expectStatus } from '../support/answer.js';

/**
 * One run model for every object (issue 25): for each kind of object a tenant owns, a call whose
 * backend step fails (the lab's fault hook) answers 502 naming its run (`Run-Id`) and the failed
 * step activity (`Run-Steps`); the run is found as a platform engineer would find it (a
 * visibility query on `Outcome='failed'`, `FailedSteps` and `ExecutionStatus='Running'`: it is
 * parked, waiting for the repeat); its failed activity, decoded through the API's codec endpoint
 * as the Temporal UI decodes it, carries the backend's answer; and the repeated call resumes the
 * same run, which then says `Outcome='resumed'` and keeps `FailedSteps`.
 */
let site: TestSite;
let workload: { vmid: number };

const T = 'runs';

beforeAll(async () => {
  // A short backend timeout: a paused broker fails its step in seconds.
  site = await startTestSite({ backendTimeoutMs: 1500, env: { WORKER_METRICS_ADDRESS: '127.0.0.1:0' } });
  for (const name of [T, 'runsdel']) expectStatus(await site.call('POST', '/v1/tenants', { body: { name } }), 201, site.logs);
  const w = await site.call('POST', `/v1/tenants/${T}/workloads`, { body: { name: 'gone' } });
  expect(w.status, w.text).toBe(201);
  workload = w.body;
  expectStatus(await site.call('PUT', `/v1/tenants/${T}/records/old`, { body: { address: '10.128.1.60' } }), 200, site.logs);
  expectStatus(
    await site.call('POST', `/v1/tenants/${T}/devices`, { body: { name: 'probe1', trust_class: 'sensor', mac: 'aa:bb:cc:dd:ee:01' } }),
    201,
    site.logs,
  );
  expectStatus(await site.call('POST', `/v1/tenants/${T}/wifi-keys`, { body: { name: 'oldkey', trust_class: 'sensor' } }), 201, site.logs);
  expectStatus(await site.call('POST', `/v1/tenants/${T}/broker-accounts`, { body: { name: 'app0', publish: ['data/#'], subscribe: [] } }), 201, site.logs);
  site.backends.proxmox.removeTenantNetwork('runsdel');
});
afterAll(async () => {
  await site?.stop();
});

/** A fault of a simulator or real server's proxy, on for the call only. */
const faulted =
  (faults: () => Faults, fault: Parameters<Faults['add']>[0]) =>
  async <R>(call: () => Promise<R>): Promise<R> => {
    faults().add(fault);
    try {
      return await call();
    } finally {
      faults().clear();
    }
  };
const pdns = (fault: Parameters<Faults['add']>[0]) => faulted(() => site.backends.pdns.faults, fault);

interface Case {
  object: string;
  call: () => Promise<{ status: number; body: any; headers: Headers; text: string }>;
  during: <R>(call: () => Promise<R>) => Promise<R>;
  run: string;
  step: string;
  activity: string;
  /** The product whose answer the failure carries. */
  backend: string;
  /** The status of the repeat that resumes. */
  resumed: number;
  /** The object's read: its condition says why it is not ready while the run is parked. */
  read: string;
  /** A new broker account is written to the registry once the broker holds it: no read while parked. */
  unreadWhileParked?: true;
}

const CASES: Case[] = [
  {
    object: 'tenant create',
    call: () => site.call('POST', '/v1/tenants', { body: { name: 'runsnew' } }),
    during: pdns({ failNext: 1000, status: 500, match: '/zones' }),
    run: 'tenant-create/runsnew',
    step: 'dns',
    activity: 'dns.ensure',
    backend: 'powerdns',
    resumed: 200,
    read: '/v1/tenants/runsnew',
  },
  {
    object: 'tenant delete',
    call: () => site.call('DELETE', '/v1/tenants/runsdel'),
    during: pdns({ failNext: 1000, status: 500, match: '/zones', method: 'DELETE' }),
    run: 'tenant-delete/runsdel',
    step: 'dns',
    activity: 'dns.remove',
    backend: 'powerdns',
    resumed: 204,
    read: '/v1/tenants/runsdel',
  },
  {
    object: 'workload create',
    call: () => site.call('POST', `/v1/tenants/${T}/workloads`, { body: { name: 'web' } }),
    during: faulted(() => site.backends.proxmox.faults, { failNext: 1000, status: 500, match: '/clone', method: 'POST' }),
    run: `workload-create/${T}/web`,
    step: 'hypervisor',
    activity: 'hypervisor.ensure-vm',
    backend: 'proxmox',
    resumed: 201,
    read: `/v1/tenants/${T}/workloads/web`,
  },
  {
    object: 'workload delete',
    call: () => site.call('DELETE', `/v1/tenants/${T}/workloads/gone`),
    during: (call) => faulted(() => site.backends.proxmox.faults, { failNext: 1000, status: 500, match: `/qemu/${workload.vmid}`, method: 'DELETE' })(call),
    run: `workload-delete/${T}/gone`,
    step: 'hypervisor',
    activity: 'hypervisor.remove-vm',
    backend: 'proxmox',
    resumed: 204,
    read: `/v1/tenants/${T}/workloads/gone`,
  },
  {
    object: 'record put',
    call: () => site.call('PUT', `/v1/tenants/${T}/records/www`, { body: { address: '10.128.1.50' } }),
    during: pdns({ failNext: 1000, status: 500, method: 'PATCH' }),
    run: `record-put/${T}/www`,
    step: 'dns',
    activity: 'dns.publish-record',
    backend: 'powerdns',
    resumed: 200,
    read: `/v1/tenants/${T}/records`,
  },
  {
    object: 'record delete',
    call: () => site.call('DELETE', `/v1/tenants/${T}/records/old`),
    during: pdns({ failNext: 1000, status: 500, method: 'PATCH' }),
    run: `record-delete/${T}/old`,
    step: 'dns',
    activity: 'dns.unpublish-record',
    backend: 'powerdns',
    resumed: 204,
    read: `/v1/tenants/${T}/records`,
  },
  {
    object: 'device address reserve',
    call: () => site.call('POST', `/v1/tenants/${T}/devices/probe1/address`, { body: {} }),
    during: pdns({ failNext: 1000, status: 500, method: 'PATCH' }),
    run: `device-address/${T}/probe1/lowest`,
    step: 'dns',
    activity: 'device-address.apply',
    backend: 'powerdns',
    resumed: 201,
    read: `/v1/tenants/${T}/devices/probe1/address`,
  },
  {
    object: 'Wi-Fi key issue',
    call: () => site.call('POST', `/v1/tenants/${T}/wifi-keys`, { body: { name: 'sensors', trust_class: 'sensor' } }),
    during: faulted(() => site.backends.unifi!.faults, { failNext: 1000, status: 500, method: 'PUT', match: 'wlanconf' }),
    run: `wifi-key/${T}/sensors`,
    step: 'wifi',
    activity: 'wifi.ensure-key',
    backend: 'unifi',
    resumed: 201,
    read: `/v1/tenants/${T}/wifi-keys/sensors`,
  },
  {
    object: 'Wi-Fi key revoke',
    call: () => site.call('DELETE', `/v1/tenants/${T}/wifi-keys/oldkey`),
    during: faulted(() => site.backends.unifi!.faults, { failNext: 1000, status: 500, method: 'PUT', match: 'wlanconf' }),
    run: `wifi-key-revoke/${T}/oldkey`,
    step: 'wifi',
    activity: 'wifi.revoke-key',
    backend: 'unifi',
    resumed: 204,
    read: `/v1/tenants/${T}/wifi-keys/oldkey`,
  },
  {
    object: 'broker account ensure',
    call: () => site.call('POST', `/v1/tenants/${T}/broker-accounts`, { body: { name: 'app', publish: ['data/#'], subscribe: [] } }),
    during: (call) => pausingBroker(site.backends.mosquitto!.dir, call),
    run: `broker-account/${T}/app`,
    step: 'broker',
    activity: 'broker.ensure-account',
    backend: 'broker',
    resumed: 201,
    read: `/v1/tenants/${T}/broker-accounts/app`,
    unreadWhileParked: true,
  },
  {
    object: 'broker account re-issue',
    call: () => site.call('POST', `/v1/tenants/${T}/broker-accounts`, { body: { name: 'app0', publish: ['data/x/#'], subscribe: [] } }),
    during: (call) => pausingBroker(site.backends.mosquitto!.dir, call),
    run: `broker-account/${T}/app0`,
    step: 'broker',
    activity: 'broker.ensure-account',
    backend: 'broker',
    resumed: 201,
    read: `/v1/tenants/${T}/broker-accounts/app0`,
  },
];

type WirePayload = { metadata?: Record<string, string>; data?: string };
const wire = (p: { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null }): WirePayload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  data: Buffer.from(p.data ?? []).toString('base64'),
});

/** What the Temporal UI shows of a payload: decoded by the API's codec endpoint, read as JSON. */
async function decoded(p: { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null }): Promise<any> {
  const r = await site.call('POST', '/codec/decode', { body: { payloads: [wire(p)] } });
  expect(r.status, r.text).toBe(200);
  return JSON.parse(Buffer.from(r.body.payloads[0].data, 'base64').toString());
}

async function runOf(id: string) {
  const d = await site.client.workflow.getHandle(id).describe();
  return { runId: d.runId, status: d.status.name, outcome: d.typedSearchAttributes.get(OUTCOME), failedSteps: d.typedSearchAttributes.get(FAILED_STEPS) ?? [] };
}

async function scrape(url: string): Promise<string> {
  return (await fetch(`${url}/metrics`)).text();
}

/** The object as its read shows it: the object itself, or its entry in a list (records have no object route). */
async function readOf(path: string, c: Case): Promise<any> {
  const r = await site.call('GET', path);
  if (!path.endsWith('/records')) return r.status === 200 ? r.body : undefined;
  const name = c.run.split('/').pop();
  return (r.body.records as { name: string }[]).find((x) => x.name === name);
}

describe.each(CASES)('a $object whose $step step fails', (c) => {
  let failedRun: string;
  let shown: any;

  it("answers 502 naming the run, the failed step activity and the backend's answer", async () => {
    const failed = await c.during(c.call);
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error).toBe(`backend step "${c.step}" failed`);
    expect(failed.headers.get('run-id')).toBe(c.run);
    expect(failed.headers.get('run-steps')).toContain(`${c.activity}=failed`);
    shown = failed.body.failure;
    expect(shown).toMatchObject({ step: c.step, activity: c.activity, backend: c.backend, answer: expect.any(String) });
    expect(shown.reason).toMatch(/^Backend(Failed|Refused)$/);
    // No host of the site's backends in what a caller reads.
    expect(JSON.stringify(shown)).not.toMatch(/127\.0\.0\.1|localhost:\d|\/\/(?!\[backend\])[a-z0-9.-]+:\d/);
  });

  it('is read, while parked, with the condition of its run: not ready, the failed step, the same answer', async () => {
    const object = await readOf(c.read, c);
    if (c.unreadWhileParked) return expect(object, `GET ${c.read}`).toBeUndefined();
    expect(object, `GET ${c.read}`).toBeDefined();
    expect(object.condition).toMatchObject({ ready: false, run: { id: c.run, state: 'parked' }, failure: shown });
    expect(Date.parse(object.condition.since)).not.toBeNaN();
  });

  it("is found parked, by Outcome='failed' and FailedSteps, as an engineer searches", async () => {
    const query = `WorkflowId = '${c.run}' AND Outcome = 'failed' AND FailedSteps = '${c.step}' AND ExecutionStatus = 'Running'`;
    await waitFor(async () => {
      for await (const w of site.client.workflow.list({ query })) return w.workflowId === c.run;
      return false;
    }, 15_000);
    const run = await runOf(c.run);
    expect(run).toMatchObject({ status: 'RUNNING', outcome: 'failed', failedSteps: [c.step] });
    failedRun = run.runId;
  });

  it("shows the failed activity's attempts and, decoded, the backend's answer", async () => {
    const events = (await site.client.workflow.getHandle(c.run).fetchHistory()).events ?? [];
    const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === c.activity);
    expect(scheduled.length, `${c.activity} scheduled`).toBeGreaterThan(0);
    const ids = new Set(scheduled.map((e) => String(e.eventId)));
    const failure = events.find((e) => ids.has(String(e.activityTaskFailedEventAttributes?.scheduledEventId)))?.activityTaskFailedEventAttributes?.failure;
    expect(failure, 'the activity failed').toBeDefined();
    const started = events.find((e) => ids.has(String(e.activityTaskStartedEventAttributes?.scheduledEventId)))?.activityTaskStartedEventAttributes;
    expect(started?.attempt, 'retried, then given up').toBe(3);
    // The step's name is readable in the UI's collapsed row; what the backend answered is
    // encrypted in history (the codec is AES-256-GCM) and read only through the codec.
    expect(failure!.message).toBe(`backend step "${c.step}" failed`);
    expect(failure!.cause!.message).toBe('Encoded failure');
    expect(JSON.stringify(failure)).not.toContain(`${c.backend}:`);
    expect((await decoded(failure!.encodedAttributes!)).message).toBe(`backend step "${c.step}" failed`);
    const details = await decoded(failure!.applicationFailureInfo!.details!.payloads![0]!);
    expect(details).toMatchObject({ step: c.step, backend: c.backend, answer: expect.any(String) });
    // What the 502 and the read showed is what the history holds.
    expect(shown.answer).toBe(details.answer);
    const cause = await decoded(failure!.cause!.encodedAttributes!);
    expect(cause.message).toMatch(new RegExp(`^${c.backend}: `));
  });

  it('the repeated call resumes the same run, which then says so', async () => {
    const again = await c.call();
    expect(again.status, again.text).toBe(c.resumed);
    expect(again.headers.get('run-id')).toBe(c.run);
    expect(again.headers.get('run-steps')).toContain(`${c.activity}=ok`);
    await waitFor(async () => (await runOf(c.run)).status === 'COMPLETED', 15_000);
    expect(await runOf(c.run)).toEqual({ runId: failedRun, status: 'COMPLETED', outcome: 'resumed', failedSteps: [c.step] });
    // Resumed: a create's object reads ready with no failure; a delete's is gone.
    const object = await readOf(c.read, c);
    if (c.resumed === 204) expect(object).toBeUndefined();
    else {
      expect(object.condition).toMatchObject({ ready: true, run: { id: c.run, state: 'done' } });
      expect(object.condition.failure).toBeUndefined();
    }
  });
});

describe('step metrics count every object', () => {
  it("counts each object's failed step once as a run, and each of its attempts", async () => {
    const text = await scrape(site.workerMetricsUrl!);
    const sample = (name: string, labels: string) => Number(new RegExp(`^${name}\\{${labels}\\} (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
    const runs = (labels: string) => sample('provisioning_step_runs_total', labels);
    const attempts = (labels: string) => sample('provisioning_step_attempts_total', labels);
    expect(runs('step="hypervisor",operation="ensure-vm",outcome="failed"')).toBe(1);
    expect(attempts('step="hypervisor",operation="ensure-vm",outcome="failed"')).toBe(3);
    expect(runs('step="hypervisor",operation="ensure-vm",outcome="created"')).toBeGreaterThanOrEqual(1);
    expect(runs('step="wifi",operation="ensure-key",outcome="failed"')).toBe(1);
    expect(attempts('step="wifi",operation="ensure-key",outcome="failed"')).toBe(3);
    // Two broker cases (a new account, a re-issue): two failed runs, three attempts each.
    expect(runs('step="broker",operation="ensure-account",outcome="failed"')).toBe(2);
    expect(attempts('step="broker",operation="ensure-account",outcome="failed"')).toBe(6);
  });
});
