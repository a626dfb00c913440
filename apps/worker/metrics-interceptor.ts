/**
 * Step metrics from the worker's activity inbound interceptor: every activity that runs a backend
 * step, of a tenant or of any object it owns, is counted by step, operation and outcome, with its
 * duration, without the steps themselves knowing about metrics. Each attempt is counted
 * (`step_attempts_total`), and each run once (`step_runs_total`): a run ends with the attempt that
 * succeeds, or with a failed attempt no retry follows (the last its retry policy allows, or a
 * failure it does not retry), which is the step the workflow sees failed.
 *
 * Which activities are steps: each step is its own activity whose type is `<area>.<verb>`
 * (`dns.ensure`, `hypervisor.ensure-vm`, `broker.remove-account`); `step` is the area and
 * `operation` the verb. An answer of objects `{object, result}` (result `in-place|created|corrected`,
 * design §4) is counted by the most it did; a removal (`remove`, `unpublish`, `revoke`, `release`)
 * that succeeds is `removed`; any other success (a read, a check) is `done`. Also read, so the
 * counts hold for runs begun before that layout: `step<Name>` activities (same answer), and an
 * answer that is a report of several steps (`[{step, objects}]`, runSteps). A failed step of those
 * is the one a backend step's failure (`BackendFailed`/`BackendRefused`) names as its first
 * detail. Any other activity is left alone.
 */
import { ApplicationFailure, type Context as ActivityContext, type Info } from '@temporalio/activity';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, ActivityInterceptorsFactory, Next } from '@temporalio/worker';
import type { StepOutcome, WorkerMetrics } from '../telemetry/metrics.js';

export interface StepRun {
  step: string;
  operation: string;
}

const STEP_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** The step and operation an activity type runs, or undefined for an activity that is no step. */
export function stepOfActivity(activityType: string): StepRun | undefined {
  const dotted = /^([a-z][a-z0-9-]{0,31})\.([a-z][a-z0-9-]{0,31})$/.exec(activityType);
  if (dotted) return { step: dotted[1]!, operation: dotted[2]! };
  const legacy = /^step([A-Z][A-Za-z]*)$/.exec(activityType);
  if (legacy) return { step: legacy[1]!.replace(/[A-Z]/g, (c, at: number) => (at ? '-' : '') + c.toLowerCase()), operation: 'ensure' };
  return undefined;
}

function isObjectOutcomes(v: unknown): v is Array<{ object: unknown; result: unknown }> {
  return Array.isArray(v) && v.every((o) => o !== null && typeof o === 'object' && 'result' in o);
}

/** The outcome of a run from its objects: the most a run did to any of them. */
export function outcomeOfObjects(objects: unknown): StepOutcome | undefined {
  if (!isObjectOutcomes(objects)) return undefined;
  const results = new Set(objects.map((o) => o.result));
  if (results.has('corrected')) return 'corrected';
  if (results.has('created')) return 'created';
  return 'in_place';
}

/** The steps of a report answer (`[{step, objects}]`), each with its outcome; empty otherwise. */
export function stepsOfReport(answer: unknown): Array<{ step: string; outcome: StepOutcome }> {
  if (!Array.isArray(answer)) return [];
  const out: Array<{ step: string; outcome: StepOutcome }> = [];
  for (const entry of answer) {
    if (entry === null || typeof entry !== 'object') return [];
    const { step, objects } = entry as { step?: unknown; objects?: unknown };
    const outcome = outcomeOfObjects(objects);
    if (typeof step !== 'string' || !STEP_NAME.test(step) || !outcome) return [];
    out.push({ step, outcome });
  }
  return out;
}

const REMOVALS = /^(remove|unpublish|revoke|release)(-|$)/;

/** What a step's success did: its objects' most, `removed` for a removal, else `done`. */
export function successOf(operation: string, answer: unknown): StepOutcome {
  if (REMOVALS.test(operation)) return 'removed';
  // A plan changed nothing: what it found is counted as drift (reconcile_objects_total{mode="plan"}), not as the step's outcome.
  if (/^plan/.test(operation)) return 'done';
  return outcomeOfObjects(answer) ?? 'done';
}

/** The failure types a backend step leaves with (activities/step-failure.ts asBackendStep). */
const STEP_FAILURES = new Set(['BackendFailed', 'BackendRefused']);

/** The step a backend step's failure names (its first detail), when it names one. */
export function failedStepOf(err: unknown): string | undefined {
  if (!(err instanceof ApplicationFailure) || !STEP_FAILURES.has(err.type ?? '')) return undefined;
  const first: unknown = err.details?.[0];
  return typeof first === 'string' && STEP_NAME.test(first) ? first : undefined;
}

/**
 * Whether a failed attempt ends its run: no retry follows it. The policy is the one the workflow
 * scheduled the activity with (the server's default when it gave none: retried without end, so only
 * a failure that is not retried ends it). An attempt the server timed out and the worker never saw
 * end is counted by neither counter: the worker has no answer of it to count.
 */
export function endsRun(info: Pick<Info, 'attempt' | 'retryPolicy'>, err: unknown): boolean {
  if (err instanceof ApplicationFailure && (err.nonRetryable || (err.type && info.retryPolicy?.nonRetryableErrorTypes?.includes(err.type)))) return true;
  const max = info.retryPolicy?.maximumAttempts;
  return max !== undefined && max > 0 && info.attempt >= max;
}

/** The isolation check's probes (activities/isolation/): their failure types, as verdict.ts names them. */
const ISOLATION_PROBE = 'isolation-probe';
const ISOLATION_CROSSED = 'IsolationCrossed';

/** What an isolation probe came to: its answer on success, its failure's type when it ends its run. */
function probeResult(answer: unknown, err?: unknown): 'isolated' | 'works' | 'crossed' | 'broken' {
  if (err !== undefined) return err instanceof ApplicationFailure && err.type === ISOLATION_CROSSED ? 'crossed' : 'broken';
  return (answer as { result?: unknown } | undefined)?.result === 'reached' ? 'works' : 'isolated';
}

/** The runs whose step answers are a reconcile's findings. */
const RECONCILE_MODE_OF: Record<string, 'correct' | 'plan' | undefined> = { tenantReconcile: 'correct', tenantPlan: 'plan' };

class StepMetricsInterceptor implements ActivityInboundCallsInterceptor {
  constructor(
    private readonly ctx: ActivityContext,
    private readonly metrics: WorkerMetrics,
  ) {}

  /** An attempt, and the run too when the attempt ends it. */
  private count(step: string, operation: string, outcome: StepOutcome, endsRun: boolean, seconds?: number): void {
    this.metrics.stepAttempts.inc({ step, operation, outcome });
    if (endsRun) this.metrics.stepRuns.inc({ step, operation, outcome });
    if (seconds !== undefined) this.metrics.stepDuration.observe({ step, operation, outcome }, seconds);
  }

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const run = stepOfActivity(this.ctx.info.activityType);
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const answer = await next(input);
      if (run) {
        this.count(run.step, run.operation, successOf(run.operation, answer), true, seconds());
        if (run.operation === ISOLATION_PROBE) this.metrics.isolationChecks.inc({ backend: run.step, result: probeResult(answer) });
        // What a reconcile or its plan found, step by step and area by area (a create's ensures are not drift).
        const mode = RECONCILE_MODE_OF[this.ctx.info.workflowType ?? ''];
        if (mode && isObjectOutcomes(answer)) {
          for (const o of answer) if (typeof o.result === 'string') this.metrics.reconcileObjects.inc({ area: run.step, result: o.result, mode });
        }
      } else {
        // A report of several steps has no duration per step: counted, not timed.
        for (const s of stepsOfReport(answer)) this.count(s.step, 'ensure', s.outcome, true);
      }
      return answer;
    } catch (err) {
      const step = run?.step ?? failedStepOf(err);
      const ends = endsRun(this.ctx.info, err);
      if (step) this.count(step, run?.operation ?? 'ensure', 'failed', ends, run ? seconds() : undefined);
      if (run?.operation === ISOLATION_PROBE && ends) this.metrics.isolationChecks.inc({ backend: run.step, result: probeResult(undefined, err) });
      throw err;
    }
  }
}

/** The interceptor factory the worker registers when its metrics are on. */
export function stepMetricsInterceptor(metrics: WorkerMetrics): ActivityInterceptorsFactory {
  return (ctx) => ({ inbound: new StepMetricsInterceptor(ctx, metrics) });
}
