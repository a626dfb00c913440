/**
 * The service's own Prometheus metrics (prom-client), one registry per process part. Label values
 * are bounded by construction: step names, operations, outcomes, backend products, statuses and
 * route templates; never a tenant name, token or address.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { noneParked, OBJECT_KINDS, type TenantCensus } from '../../db/queries/census.js';

/** What one run of an ensure did: the most it did to any of its objects, or its failure. */
export const STEP_OUTCOMES = ['in_place', 'created', 'corrected', 'failed'] as const;
/** A removal that succeeded is `removed`; a read or check, `done`. */
export type StepOutcome = (typeof STEP_OUTCOMES)[number] | 'removed' | 'done';

/** What a reconcile finds of one object (core/backend-outcome.ts ReconcileResult). */
export const RECONCILE_RESULTS = ['in-place', 'created', 'corrected', 'needs-restore', 'unknown', 'removed'] as const;

/** What one backend call came to. */
export const BACKEND_RESULTS = ['ok', 'refused', 'error', 'timeout', 'unreachable'] as const;
export type BackendResult = (typeof BACKEND_RESULTS)[number];

// Backend calls take milliseconds to seconds; steps up to a minute (a VM clone longer).
const CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STEP_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

export const PREFIX = 'provisioning_';

/**
 * The worker's metrics: steps, backend calls, sweeps. The step activities given
 * (`<step>.<operation>`) start at zero for `failed`, and a tenant's ensures for every outcome:
 * Prometheus' increase() and rate() see a counter's first increment only when a sample before it
 * exists, so the first failure of a step would otherwise go unseen.
 */
export function createWorkerMetrics(stepActivities: readonly string[] = [], registry = new Registry()) {
  collectDefaultMetrics({ register: registry });
  const metrics = {
    registry,
    // Runs and attempts apart: a step that fails for good runs three attempts (the retry policy,
    // workflows/activity-options.ts), and a count of attempts read as one of failed steps told of
    // three failures where one create had failed.
    stepRuns: new Counter({
      name: `${PREFIX}step_runs_total`,
      help: 'Runs of each backend step activity (<step>.<operation>) of tenants and every object they own, each counted once whatever its attempts, by step (the area), operation (the verb) and outcome: what the attempt that ended the run did (in_place|created|corrected|removed|done), or failed when its last attempt failed and no retry follows (the run then parks or ends).',
      labelNames: ['step', 'operation', 'outcome'] as const,
      registers: [registry],
    }),
    stepAttempts: new Counter({
      name: `${PREFIX}step_attempts_total`,
      help: 'Attempts of each backend step activity (<step>.<operation>), a retried one counted at each attempt, by step, operation and outcome: what the attempt did (in_place|created|corrected|removed|done), or failed (a retry may follow).',
      labelNames: ['step', 'operation', 'outcome'] as const,
      registers: [registry],
    }),
    stepDuration: new Histogram({
      name: `${PREFIX}step_duration_seconds`,
      help: 'Duration of each attempt of a backend step activity, by step, operation and the outcome of the attempt.',
      labelNames: ['step', 'operation', 'outcome'] as const,
      buckets: STEP_BUCKETS,
      registers: [registry],
    }),
    backendCalls: new Counter({
      name: `${PREFIX}backend_calls_total`,
      help: 'HTTP calls to the site backends, by backend and result (ok|refused|error|timeout|unreachable).',
      labelNames: ['backend', 'result'] as const,
      registers: [registry],
    }),
    backendCallsByActivity: new Counter({
      name: `${PREFIX}backend_calls_by_activity_total`,
      help: 'HTTP calls to the site backends by the step activity that made them (<area>.<verb>; "none" outside an activity) and backend: where a run or a sweep spends its calls.',
      labelNames: ['activity', 'backend'] as const,
      registers: [registry],
    }),
    backendDuration: new Histogram({
      name: `${PREFIX}backend_call_duration_seconds`,
      help: 'Latency of HTTP calls to the site backends, by backend and result.',
      labelNames: ['backend', 'result'] as const,
      buckets: CALL_BUCKETS,
      registers: [registry],
    }),
    sweepRuns: new Counter({
      name: `${PREFIX}sweep_runs_total`,
      help: 'Scheduled reconcile sweeps finished, by outcome (completed|failed).',
      labelNames: ['outcome'] as const,
      registers: [registry],
    }),
    sweepTenants: new Counter({
      name: `${PREFIX}sweep_tenants_total`,
      help: 'Tenants the sweeps reconciled, by result (reconciled|failed).',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    logRoutesRestored: new Counter({
      name: `${PREFIX}log_routes_restored_total`,
      help: "Tenants whose log routes this worker's route keeper wrote back after the gateway lost them (a Caddy reload).",
      registers: [registry],
    }),
    sweepCorrected: new Counter({
      name: `${PREFIX}sweep_objects_corrected_total`,
      help: 'Backend objects the sweeps created or corrected (drift put back).',
      registers: [registry],
    }),
    lastSweepCorrected: new Gauge({
      name: `${PREFIX}sweep_last_objects_corrected`,
      help: 'Backend objects the last sweep finished by this worker created or corrected.',
      registers: [registry],
    }),
    reconcileObjects: new Counter({
      name: `${PREFIX}reconcile_objects_total`,
      help: "Objects a tenant's reconcile (mode=correct) or its plan (mode=plan) found, by step or area of its objects (dns, network, ..., hypervisor, wifi, broker) and result (in-place|created|corrected|needs-restore|unknown|removed); in a plan, what a reconcile would do.",
      labelNames: ['area', 'result', 'mode'] as const,
      registers: [registry],
    }),
    isolationChecks: new Counter({
      name: `${PREFIX}isolation_checks_total`,
      help: "The isolation check's probes (issue 49), by backend (api|dns|state|broker|log-store|dashboards|wifi|certificates) and result: isolated (a canary's credential refused on the other canary's objects), works (taken on its own), crossed (it reached the other canary's objects: one tenant's credential reaches another's), broken (refused on its own objects, or the backend did not answer: that backend's isolation is unknown).",
      labelNames: ['backend', 'result'] as const,
      registers: [registry],
    }),
    lastSweepTime: new Gauge({
      name: `${PREFIX}sweep_last_finished_timestamp_seconds`,
      help: 'When the last sweep finished by this worker ended (Unix time).',
      registers: [registry],
    }),
  };
  for (const type of stepActivities) {
    const [step, operation] = type.split('.') as [string, string];
    for (const outcome of operation === 'ensure' ? STEP_OUTCOMES : (['failed'] as const)) {
      metrics.stepRuns.inc({ step, operation, outcome }, 0);
      metrics.stepAttempts.inc({ step, operation, outcome }, 0);
    }
  }
  metrics.sweepRuns.inc({ outcome: 'completed' }, 0);
  metrics.sweepRuns.inc({ outcome: 'failed' }, 0);
  metrics.sweepCorrected.inc(0);
  metrics.logRoutesRestored.inc(0);
  // A first crossing must show in increase(): every probed backend's bad results start at zero.
  for (const type of stepActivities.filter((t) => t.endsWith('.isolation-probe'))) {
    for (const result of ['crossed', 'broken']) metrics.isolationChecks.inc({ backend: type.split('.')[0]!, result }, 0);
  }
  for (const area of new Set(stepActivities.filter((t) => /^(reconcile|plan)/.test(t.split('.')[1]!)).map((t) => t.split('.')[0]!))) {
    for (const result of RECONCILE_RESULTS) for (const mode of ['correct', 'plan']) metrics.reconcileObjects.inc({ area, result, mode }, 0);
  }
  return metrics;
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

export const TENANT_STATUSES = ['provisioning', 'ready', 'deleting'] as const;

/** The API's metrics besides HTTP's: tenants by status and parked runs by kind, from the registry. */
export function createApiMetrics(census: () => Promise<TenantCensus>, registry = new Registry()) {
  collectDefaultMetrics({ register: registry });
  // One registry read per scrape, shared by the gauges (each runs its collect() per scrape).
  // A registry that does not answer leaves the gauges at their last values rather than failing
  // the whole scrape: the HTTP and process metrics still matter most when the database is away.
  let last: TenantCensus = { byStatus: {}, parked: noneParked() };
  let pending: Promise<TenantCensus> | undefined;
  const read = () =>
    (pending ??= census()
      .then(
        (c) => (last = c),
        () => last,
      )
      .finally(() => (pending = undefined)));
  new Gauge({
    name: `${PREFIX}tenants`,
    help: 'Registered tenants by status.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const c = await read();
      for (const status of TENANT_STATUSES) this.set({ status }, c.byStatus[status] ?? 0);
    },
  });
  // Every kind of object's runs park after a failed step (a workload's create as a tenant's), so
  // the gauges are by kind, each kind present (0 when none) for an alert to compare against.
  const parkedGauges = [
    [
      'parked_runs',
      'Runs parked after a failed step, waiting for the repeat of their call that resumes them (Running in Temporal with Outcome=failed), by the kind of object they work on (tenant|workload|record|device-address|wifi-key|broker-account).',
      'runs',
    ],
    ['parked_run_oldest_age_seconds', 'Age of the oldest parked run of each kind of object, since its failed step; 0 when none is parked.', 'oldestSeconds'],
  ] as const;
  for (const [name, help, field] of parkedGauges) {
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      labelNames: ['kind'] as const,
      registers: [registry],
      async collect() {
        const { parked } = await read();
        for (const kind of OBJECT_KINDS) this.set({ kind }, parked[kind][field]);
      },
    });
  }
  return { registry };
}
