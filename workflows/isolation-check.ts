import { proxyActivities, proxyLocalActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { CANARY_NAMES, type CanaryName } from '../core/canaries.js';
import type { IsolationBackend, IsolationCheckResult, ProbeFinding } from '../contracts/isolation-check.js';
import { REGISTRY_OPTIONS, STEP_OPTIONS } from './activity-options.js';
import { answered } from './run-attributes.js';
import { failureOfLastAttempt, runStep } from './run-step.js';

const registry = proxyLocalActivities<Activities>(REGISTRY_OPTIONS);

/**
 * Making the canaries ready runs a tenant create (the network step alone may wait minutes at the
 * fabric) and a broker account's run: bounded as a create is, and retried a few times, since the
 * next scheduled check tries again anyway.
 */
const canaries = proxyActivities<Activities>({
  startToCloseTimeout: '20m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: ['CanaryMissing'] },
});

/** A crossing is an answer, never retried; a probe the backend did not answer is retried like any step. */
const PROBE_OPTIONS: ActivityOptions = {
  ...STEP_OPTIONS,
  retry: { ...STEP_OPTIONS.retry, nonRetryableErrorTypes: ['IsolationCrossed', 'CanaryMissing'] },
};

/** The credential each backend's probe presents, in the words of the finding. */
const CREDENTIAL: Record<IsolationBackend, string> = {
  api: 'API token',
  dns: 'TSIG key',
  state: 'state-store key',
  broker: 'broker account',
  'log-store': 'log tokens',
  dashboards: 'dashboard login',
  wifi: 'Wi-Fi key',
  certificates: 'certificate',
};

/**
 * `isolation-check` (issue 49), started by its Schedule and by `POST /v1/isolation-checks`: the
 * canary pair made ready, then on every backend the site runs, each canary's credential against its
 * own objects (the probe itself works) and against the other canary's (it must be refused). Every
 * probe is a step activity (`dns.isolation-probe`), so each attempt is in the run's history, and a
 * crossing is that step failed, naming backend, credential kind and what was reached. Nothing of a
 * credential crosses Temporal: the probes read them from the registry.
 */
export async function isolationCheck(): Promise<IsolationCheckResult> {
  const started = new Date();
  const pair = await canaries.ensureCanaries();
  const [a, b] = CANARY_NAMES;
  const probes: ProbeFinding[] = [];
  for (const backend of pair.backends) {
    for (const [credentialOf, objectOf] of [
      [a, a],
      [b, b],
      [a, b],
      [b, a],
    ] as [CanaryName, CanaryName][]) {
      // One probe at a time, each call paced by the site's bound on calls per backend (backends/http/pace.ts).
      probes.push(await probe(backend, credentialOf, objectOf));
    }
  }
  const crossings = probes.filter((p) => p.result === 'crossed').map((p) => p.detail);
  const result: IsolationCheckResult = {
    passed: probes.every((p) => p.result === 'isolated' || p.result === 'works'),
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    run_id: workflowInfo().runId,
    crossings,
    probes,
    skipped: pair.skipped,
  };
  await registry.saveIsolationCheck({ runId: workflowInfo().runId, workflowId: workflowInfo().workflowId, result });
  answered(crossings.length ? 'crossed' : result.passed ? 'isolated' : 'failed');
  return result;
}

async function probe(backend: IsolationBackend, credentialOf: CanaryName, objectOf: CanaryName): Promise<ProbeFinding> {
  const own = credentialOf === objectOf;
  const about = `${own ? 'own' : 'other'} objects: canary ${credentialOf}'s ${CREDENTIAL[backend]} on canary ${objectOf}'s`;
  const run = await runStep(`${backend}.isolation-probe` as 'dns.isolation-probe', [{ credentialOf, objectOf }], { object: about, options: PROBE_OPTIONS });
  const finding = { backend, credential: CREDENTIAL[backend], credential_of: credentialOf, object_of: objectOf };
  if (run.ok) return { ...finding, result: own ? 'works' : 'isolated', detail: run.value.attempts.join('; ') };
  const failure = failureOfLastAttempt();
  const crossed = failure?.reason === 'IsolationCrossed';
  return { ...finding, result: crossed ? 'crossed' : 'broken', detail: failure?.answer ?? `the ${backend} probe failed` };
}
