import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { WorkflowExecutionDescription } from '@temporalio/client';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildWorkflowBundle } from '../../apps/worker/workflow-bundles.js';
import { runIds } from '../../contracts/ids.js';
import type { SweepResult } from '../../contracts/tenant.js';
import { dataConverter } from '../../temporal/data-converter.js';
import { startDevServer, temporalCli, type DevServer } from '../../temporal/dev-server.js';
import { NEXT_RELEASE } from '../support/next-release.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';
import { expectStatus } from '../support/answer.js';

/**
 * An upgrade from release N to N+1 with runs in flight, as docs/upgrading.md says to do it (issue
 * 44). N is the workflow bundle this tree ships; N+1 the same with every workflow's first command
 * changed (test/support/next-release.ts), so a run of N that moved to N+1 would fail with a
 * nondeterminism error. N's worker runs, a tenant create, a workload create and a workload delete
 * are parked after failed steps and a sweep is left running; N+1's worker starts beside it and is
 * made current with the temporal CLI. Each parked call's repeat resumes its run on N and completes,
 * the sweep completes on N (its later child too), new runs begin on N+1, N drains and its worker
 * stops by itself, and no history holds a nondeterminism error. A fourth parked run (a record put)
 * is the one an operator will not wait for: cancelled as docs/upgrading.md says, its call repeated
 * completes in a new run on N+1. The dev server is the test's own:
 * it reports a version drained seconds after its last run closed, not Temporal's three minutes.
 */
const DEPLOYMENT = 'tenant-provisioning';
const { EventType, WorkflowTaskFailedCause } = proto.temporal.api.enums.v1;

let temporal: DevServer;
let site: TestSite;
let dir: string;
let nextBundle: string;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'release-upgrade-'));
  let code: string;
  [temporal, code] = await Promise.all([
    startDevServer({
      projectRoot: process.cwd(),
      dynamicConfig: {
        'matching.wv.VersionDrainageStatusVisibilityGracePeriod': '"5s"',
        'matching.wv.VersionDrainageStatusRefreshInterval': '"2s"',
      },
    }),
    buildWorkflowBundle(false, { quiet: true, interceptorModules: [resolve('test/support/next-release.ts')] }),
  ]);
  nextBundle = join(dir, 'workflow-bundle-next.js');
  writeFileSync(nextBundle, code);
  // One child at a time: the sweep starts its second child after the switch, and it must run on N.
  site = await startTestSite({ minimal: true, worker: false, temporalAddress: temporal.address, env: { SITE_SWEEP_CONCURRENCY: '1' } });
}, 180_000);

afterAll(async () => {
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  await site?.stop();
  await temporal?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The temporal CLI an operator runs (docs/upgrading.md), on the site's server and namespace. */
async function cli(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(temporalCli(process.cwd()), args, {
    env: { ...process.env, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: site.namespace },
  });
  return stdout;
}

const describeDeployment = async () =>
  JSON.parse(await cli('worker', 'deployment', 'describe', '--name', DEPLOYMENT, '-o', 'json')) as {
    routingConfig: { currentVersionBuildID: string; currentVersionChangedTime: string };
    versionSummaries: { BuildID: string; drainageStatus: string }[];
  };

const describeVersion = async (buildId: string) =>
  JSON.parse(await cli('worker', 'deployment', 'describe-version', '--deployment-name', DEPLOYMENT, '--build-id', buildId, '-o', 'json')) as {
    drainageInfo?: { drainageStatus: string };
    taskQueuesInfos?: { name: string; type: string }[];
  };

/** A worker process of the site's, as a release's image runs it; `info` logs say what its version does. */
function startWorker(env: Record<string, string>): ChildProcess {
  const child = site.spawnWorker({ LOG_LEVEL: 'info', ...env });
  workers.push(child);
  return child;
}

/** A call failed at one step by a backend fault that lasts until it has answered. */
async function parkedBy(faults: { add(f: object): void; clear(): void }, fault: object, method: string, path: string, body?: unknown) {
  faults.add({ failNext: 1000, status: 500, ...fault });
  try {
    const r = await site.call(method, path, body === undefined ? {} : { body });
    expect(r.status, r.text).toBe(502);
  } finally {
    faults.clear();
  }
}

/** The version (`deployment:build`) a run is pinned to, and its status. */
async function runOf(workflowId: string, runId?: string): Promise<{ runId: string; status: string; version: string; release?: unknown }> {
  const d = await site.client.workflow.getHandle(workflowId, runId).describe();
  return { runId: d.runId, status: d.status.name, version: versionOf(d), release: d.memo?.release };
}

function versionOf(d: WorkflowExecutionDescription): string {
  return String(d.searchAttributes?.TemporalWorkerDeploymentVersion?.[0] ?? 'unversioned');
}

/** The first run the visibility query finds, once it finds one. */
async function first(query: string): Promise<{ workflowId: string; runId: string }> {
  let found: { workflowId: string; runId: string } | undefined;
  await waitFor(async () => {
    for await (const w of site.client.workflow.list({ query })) found ??= { workflowId: w.workflowId, runId: w.runId };
    return found !== undefined;
  }, 30_000);
  return found!;
}

/** Every workflow task of the run, by the build that completed it. */
async function taskBuilds(workflowId: string, runId: string): Promise<Set<string>> {
  const history = await site.client.workflow.getHandle(workflowId, runId).fetchHistory();
  const builds = new Set<string>();
  for (const e of history.events ?? []) {
    const done = e.workflowTaskCompletedEventAttributes;
    if (done) builds.add(done.deploymentVersion?.buildId ?? 'none');
  }
  return builds;
}

it('rolls N to N+1 with parked runs and a running sweep: every one finishes on N, new runs on N+1, N drains and stops', { timeout: 240_000 }, async () => {
  // Release N: the shipped bundle, its build id the commit /version answers.
  const n = startWorker({ TEMPORAL_WORKER_BUILD_ID: '', TEMPORAL_WORKER_STOP_WHEN_DRAINED: 'true' });
  const nExit = new Promise<number | null>((r) => n.once('exit', (code) => r(code)));
  const commit = (await site.call('GET', '/version')).body.commit as string;
  await waitFor(async () => (await describeDeployment()).routingConfig.currentVersionBuildID === commit, 30_000);
  const onN = `${DEPLOYMENT}:${commit}`;

  for (const name of ['acme', 'beta']) expectStatus(await site.call('POST', '/v1/tenants', { body: { name } }), 201, site.logs);
  expectStatus(await site.call('POST', '/v1/tenants/acme/workloads', { body: { name: 'web' } }), 201, site.logs);

  // Parked on N after failed steps: a tenant create (state), a workload create (the clone), a workload delete.
  const b = site.backends;
  await parkedBy(b.minio.faults, { match: '/minio/admin' }, 'POST', '/v1/tenants', { name: 'gamma' });
  await parkedBy(b.proxmox.faults, { match: '/clone', method: 'POST' }, 'POST', '/v1/tenants/acme/workloads', { name: 'app' });
  await parkedBy(b.proxmox.faults, { match: '/qemu/', method: 'DELETE' }, 'DELETE', '/v1/tenants/acme/workloads/web');
  const parked = [runIds.tenantCreate('gamma'), runIds.workloadCreate('acme', 'app'), runIds.workloadDelete('acme', 'web')];
  const before = await Promise.all(parked.map((id) => runOf(id)));
  expect(before.map((r) => [r.status, r.version])).toEqual(parked.map(() => ['RUNNING', onN]));
  // One more, that the operator will not wait for: a record put parked at the DNS write.
  await parkedBy(b.pdns.faults, { method: 'PATCH' }, 'PUT', '/v1/tenants/acme/records/api', { address: '10.128.1.51' });
  const abandoned = await runOf(runIds.recordPut('acme', 'api'));
  expect([abandoned.status, abandoned.version]).toEqual(['RUNNING', onN]);

  // Release N+1's worker beside it: it polls, and serves nothing until its version is made current.
  const nextBuild = `${commit}-next`;
  const onNext = `${DEPLOYMENT}:${nextBuild}`;
  startWorker({ WORKFLOW_BUNDLE: nextBundle, TEMPORAL_WORKER_BUILD_ID: nextBuild });
  await waitFor(async () => (await describeVersion(nextBuild)).taskQueuesInfos?.length === 2, 30_000);
  expect((await describeDeployment()).routingConfig.currentVersionBuildID).toBe(commit);

  // A sweep left running: the state store answers slowly until N+1 is current.
  b.minio.faults.add({ latencyMs: 1_500 });
  await site.client.schedule.getHandle(runIds.reconcileSweepSchedule).trigger();
  const sweep = await first(`WorkflowType = 'reconcileSweep'`);
  await first(`WorkflowType = 'tenantReconcile' AND ExecutionStatus = 'Running'`);

  // N+1 made current, as docs/upgrading.md says.
  await cli('worker', 'deployment', 'set-current-version', '--deployment-name', DEPLOYMENT, '--build-id', nextBuild, '-y');
  const switched = await describeDeployment();
  expect(switched.routingConfig.currentVersionBuildID).toBe(nextBuild);
  expect(switched.versionSummaries.find((v) => v.BuildID === commit)?.drainageStatus).toBe('draining');
  const switchedAt = new Date(switched.routingConfig.currentVersionChangedTime);
  expect((await runOf(sweep.workflowId, sweep.runId)).status).toBe('RUNNING');
  b.minio.faults.clear();

  // New runs begin on N+1 and run its code.
  expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'delta' } }), 201, site.logs);
  expect(await runOf(runIds.tenantCreate('delta'))).toMatchObject({ status: 'COMPLETED', version: onNext, release: NEXT_RELEASE });

  // Each parked call, repeated, resumes its run on N, which completes it.
  expectStatus(await site.call('POST', '/v1/tenants', { body: { name: 'gamma' } }), 200, site.logs);
  expectStatus(await site.call('POST', '/v1/tenants/acme/workloads', { body: { name: 'app' } }), 201, site.logs);
  expectStatus(await site.call('DELETE', '/v1/tenants/acme/workloads/web'), 204, site.logs);
  for (const [i, id] of parked.entries()) {
    const after = await runOf(id);
    expect(after).toEqual({ runId: before[i]!.runId, status: 'COMPLETED', version: onN, release: undefined });
    expect(await taskBuilds(id, after.runId)).toEqual(new Set([commit]));
  }

  // The run nobody waits for is cancelled (on N) and its call repeated: a new run on N+1 completes it.
  await cli('workflow', 'cancel', '--workflow-id', runIds.recordPut('acme', 'api'));
  await waitFor(async () => (await runOf(runIds.recordPut('acme', 'api'), abandoned.runId)).status !== 'RUNNING', 30_000);
  const put = await site.call('PUT', '/v1/tenants/acme/records/api', { body: { address: '10.128.1.51' } });
  expect(put.status, put.text).toBe(200);
  const redone = await runOf(runIds.recordPut('acme', 'api'));
  expect(redone.runId).not.toBe(abandoned.runId);
  expect(redone).toMatchObject({ status: 'COMPLETED', version: onNext, release: NEXT_RELEASE });

  // The sweep completes on N, the child it started after the switch too.
  const swept = (await site.client.workflow.getHandle(sweep.workflowId, sweep.runId).result()) as SweepResult;
  expect(swept.failed).toEqual([]);
  console.log(`sweep across the switch: ${JSON.stringify({ reconciled: swept.reconciled, skipped: swept.skipped })}`);
  expect([...swept.reconciled, ...swept.skipped.map((s) => s.name)].sort()).toEqual(['acme', 'beta', 'gamma']);
  expect(await taskBuilds(sweep.workflowId, sweep.runId)).toEqual(new Set([commit]));
  const children = await Promise.all(['acme', 'beta'].map((name) => site.client.workflow.getHandle(runIds.tenantReconcile(name)).describe()));
  // What Temporal says of each child's versioning, shown when they are not on N (one CI run under
  // load found both on N+1: a child that did not inherit its sweep's pinned version).
  const versioning = JSON.stringify(children.map((c) => ({ started: c.startTime, versioning: c.raw.workflowExecutionInfo?.versioningInfo })));
  expect(
    children.map((c) => [c.status.name, versionOf(c)]),
    `switched at ${switchedAt.toISOString()}; ${versioning}`,
  ).toEqual([
    ['COMPLETED', onN],
    ['COMPLETED', onN],
  ]);
  // One of them began after the switch: a child follows its sweep's version, not the current one.
  expect(children.some((c) => c.startTime > switchedAt)).toBe(true);

  // Nothing needs N any more: it drains, and its worker stops by itself.
  expect(await cli('workflow', 'count', '--query', `ExecutionStatus="Running" AND TemporalWorkerDeploymentVersion="${onN}"`)).toMatch(/Total: 0/);
  await waitFor(async () => (await describeVersion(commit)).drainageInfo?.drainageStatus === 'drained', 60_000);
  expect(await nExit).toBe(0);
  expect(site.logs.some((l) => l.includes('worker version drained: no run needs it, stopping'))).toBe(true);
  expectStatus(await site.call('POST', '/v1/tenants/delta/workloads', { body: { name: 'late' } }), 201, site.logs);
  expect(await runOf(runIds.workloadCreate('delta', 'late'))).toMatchObject({ status: 'COMPLETED', version: onNext, release: NEXT_RELEASE });

  // No history holds a nondeterminism error; and one would have, had a parked run moved to N+1.
  const failures: string[] = [];
  for await (const w of site.client.workflow.list()) {
    const history = await site.client.workflow.getHandle(w.workflowId, w.runId).fetchHistory();
    for (const e of history.events ?? []) {
      const f = e.workflowTaskFailedEventAttributes;
      if (f && (f.cause === WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR || /TMPRL1100/.test(f.failure?.message ?? ''))) {
        failures.push(`${w.workflowId}: ${f.failure?.message}`);
      }
    }
  }
  expect(failures).toEqual([]);
  const gamma = await site.client.workflow.getHandle(parked[0]!).fetchHistory();
  expect(gamma.events?.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)).toBe(false);
  const moved = await Worker.runReplayHistory(
    { workflowBundle: { codePath: nextBundle }, dataConverter: dataConverter(site.config.codecKey) },
    gamma,
    parked[0],
  ).then(
    () => 'replayed',
    (err: Error) => err.name,
  );
  expect(moved).toBe('DeterminismViolationError');
});
