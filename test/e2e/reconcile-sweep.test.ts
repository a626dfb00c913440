import { Client } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataConverter } from '../../temporal/data-converter.js';
import { ensureSweepSchedule } from '../../temporal/schedules.js';
import { type SweepResult } from '../../contracts/tenant.js';
import { fresh } from '../support/fresh-http.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { runIds } from '../../contracts/ids.js';

/** Scheduled sweeps: a Temporal Schedule reconciles every ready tenant and repairs drift. */
let site: TestSite;
beforeAll(async () => {
  site = await startTestSite();
});
afterAll(async () => {
  await site?.stop();
});

const pdns = (path: string, init: RequestInit = {}) =>
  fetch(`${site.backends.pdns.apiUrl}/servers/localhost${path}`, { ...init, headers: { 'X-API-Key': site.backends.pdns.apiKey } });

describe('the scheduled reconcile sweep', () => {
  it('is a Schedule on the site interval that skips overlapping runs', async () => {
    await ensureSweepSchedule(site.client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 3_600_000 });
    // Ensuring again updates in place rather than failing.
    await ensureSweepSchedule(site.client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 3_600_000 });
    const desc = await site.client.schedule.getHandle(runIds.reconcileSweepSchedule).describe();
    expect(desc.spec.intervals?.[0]?.every).toBe(3_600_000);
    // The server's own next firings, an hour apart: the interval as it will run, not only as set
    // (the time-skipping test server has no Schedules to wait one out on).
    const next = desc.info.nextActionTimes.map((d) => d.getTime());
    expect(next.length).toBeGreaterThan(2);
    expect(next.slice(1).map((t, i) => t - next[i]!)).toEqual(next.slice(1).map(() => 3_600_000));
    expect(desc.policies.overlap).toBe('SKIP');
    expect(desc.action.type).toBe('startWorkflow');
  });

  it("is made again by a worker whose payload key is not the one it was made under (a site's key changed)", async () => {
    // Made under another key: its summary is sealed with it, and the current key cannot read it.
    const before = new Client({ connection: site.temporal, namespace: site.namespace, dataConverter: dataConverter(randomBytes(32)) });
    const handle = site.client.schedule.getHandle(runIds.reconcileSweepSchedule);
    await handle.delete().catch(() => undefined);
    await ensureSweepSchedule(before, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 7_200_000 });
    await expect(handle.describe()).rejects.toThrow(/sealed under another key/);
    // Two workers start at once with the current key: neither fails, and the Schedule reads again, on its interval.
    const spans: [number, number][] = [];
    await Promise.all(
      [1, 2].map(async () => {
        const t0 = performance.now();
        await ensureSweepSchedule(site.client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 3_600_000 });
        spans.push([t0, performance.now()]);
      }),
    );
    expect(spans[0]![0] < spans[1]![1] && spans[1]![0] < spans[0]![1], 'the two starts overlapped').toBe(true);
    const desc = await handle.describe();
    expect(desc.spec.intervals?.[0]?.every).toBe(3_600_000);
    expect(desc.action).toMatchObject({ type: 'startWorkflow', workflowType: 'reconcileSweep' });
  });

  it('is made again when another worker deletes it between this one finding it there and updating it', async () => {
    await ensureSweepSchedule(site.client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 7_200_000 });
    // The window two starting workers met (one replacing a Schedule sealed under an old key): this
    // worker's create answers "already there", then the other's delete lands before its update.
    let deletedUnderIt = 0;
    const schedule = new Proxy(site.client.schedule, {
      get(target, key, receiver) {
        if (key !== 'getHandle') return Reflect.get(target, key, receiver);
        return (id: string) => {
          const handle = target.getHandle(id);
          return Object.assign(Object.create(handle), {
            update: async (fn: Parameters<typeof handle.update>[0]) => {
              if (deletedUnderIt++ === 0) await handle.delete();
              return handle.update(fn);
            },
          });
        };
      },
    });
    const client = new Proxy(site.client, { get: (target, key, receiver) => (key === 'schedule' ? schedule : Reflect.get(target, key, receiver)) });
    await ensureSweepSchedule(client, { taskQueue: site.config.env.TEMPORAL_TASK_QUEUE, intervalMs: 3_600_000 });
    expect(deletedUnderIt, 'the update met the deleted Schedule').toBe(1);
    const desc = await site.client.schedule.getHandle(runIds.reconcileSweepSchedule).describe();
    expect(desc.spec.intervals?.[0]?.every).toBe(3_600_000);
  });

  it('puts back objects deleted or altered behind the service, and reports what it corrected', async () => {
    const readTokens: Record<string, string> = {};
    for (const name of ['swa', 'swb', 'swc']) {
      const created = await site.call('POST', '/v1/tenants', { body: { name } });
      expect(created.status).toBe(201);
      readTokens[name] = created.body.log.read_token as string;
    }
    // Drift: a zone deleted in PowerDNS, a state-store user removed, a log read route deleted on
    // the real Caddy gateway through its admin API.
    expect((await pdns('/zones/swa.lab.example.', { method: 'DELETE' })).status).toBe(204);
    site.backends.minio.state.users.delete('swb');
    const gateway = site.backends.logStore!;
    expect((await fetch(`${gateway.caddy.adminUrl}/id/svc-logs-swb-read`, { method: 'DELETE' })).status).toBe(200);
    const readLogs = async (name: string) =>
      (await fresh(`${gateway.endpoint}/select/logsql/query?query=*`, { headers: { Authorization: `Bearer ${readTokens[name]}` } })).status;
    expect(await readLogs('swb')).toBe(401);
    const before = Date.now();
    await site.client.schedule.getHandle(runIds.reconcileSweepSchedule).trigger();

    let runId: string | undefined;
    let workflowId: string | undefined;
    await waitFor(async () => {
      for await (const w of site.client.workflow.list({ query: `WorkflowType = 'reconcileSweep'` })) {
        if (w.startTime.getTime() >= before - 1000) {
          workflowId = w.workflowId;
          runId = w.runId;
          return true;
        }
      }
      return false;
    }, 30_000);
    const result = (await site.client.workflow.getHandle(workflowId!, runId).result()) as SweepResult;
    expect(result.tenants).toBe(3);
    expect(result.reconciled.sort()).toEqual(['swa', 'swb', 'swc']);
    expect(result.failed).toEqual([]);
    expect(result.corrected.swa).toEqual(expect.arrayContaining(['dns: zone swa.lab.example. created']));
    expect(result.corrected.swb?.some((o) => o.startsWith('state: user swb'))).toBe(true);
    expect(result.corrected.swb).toEqual(expect.arrayContaining(['log-store: log read token swb created']));
    expect(result.corrected.swc).toBeUndefined();

    expect((await pdns('/zones/swa.lab.example.')).status).toBe(200);
    expect(site.backends.minio.state.users.has('swb')).toBe(true);
    // Through real HTTP to Caddy: the read token reads again.
    expect(await readLogs('swb')).toBe(200);
    // Each reconcile is its own child run, findable per tenant.
    const child = await site.client.workflow.getHandle(runIds.tenantReconcile('swa')).describe();
    expect(child.status.name).toBe('COMPLETED');
    // The service log says what was corrected, per step.
    expect(site.logs.some((l) => l.includes('"tenant":"swa"') && l.includes('step corrected backend objects'))).toBe(true);
  });

  it('reports a tenant whose reconcile failed as failed, and reconciles the others', async () => {
    // Every PowerDNS call about swb's zone fails: its dns step cannot pass.
    site.backends.pdns.faults.add({ failNext: 1000, status: 500, match: 'swb.lab.example' });
    let result: SweepResult;
    try {
      const earlier = new Set<string>();
      for await (const w of site.client.workflow.list({ query: `WorkflowType = 'reconcileSweep'` })) earlier.add(w.runId);
      await site.client.schedule.getHandle(runIds.reconcileSweepSchedule).trigger();
      let runId: string | undefined;
      let workflowId: string | undefined;
      await waitFor(async () => {
        for await (const w of site.client.workflow.list({ query: `WorkflowType = 'reconcileSweep'` })) {
          if (!earlier.has(w.runId)) {
            workflowId = w.workflowId;
            runId = w.runId;
            return true;
          }
        }
        return false;
      }, 30_000);
      result = (await site.client.workflow.getHandle(workflowId!, runId).result()) as SweepResult;
    } finally {
      site.backends.pdns.faults.clear();
    }
    expect(result.tenants).toBe(3);
    expect(result.failed).toEqual(['swb']);
    expect(result.reconciled.sort()).toEqual(['swa', 'swc']);
  });
});
