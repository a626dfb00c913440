import type { IsolationCheckResult, ProbeAnswer, ProbeInput } from '../../contracts/isolation-check.js';
import { saveIsolationCheck } from '../../db/queries/isolation.js';
import type { ActivityDeps } from '../deps.js';
import { brokerProbe } from './broker-probe.js';
import { ensureCanaries } from './canaries.js';
import { dnsProbe } from './dns-probe.js';
import { stateProbe } from './state-probe.js';
import { logStoreProbe } from './log-store-probe.js';
import { dashboardsProbe } from './dashboards-probe.js';
import { apiProbe } from './api-probe.js';
import { wifiProbe } from './wifi-probe.js';
import { certificatesProbe } from './certificates-probe.js';

/**
 * The isolation check's activities (workflows/isolation-check.ts). Each probe is a step activity
 * named after the backend it reaches, `<area>.isolation-probe`, like the objects' steps kept in
 * their object's folder (`dns.publish-record` in records/): `Step`, `FailedSteps` and the step
 * metrics name the backend, and a crossing is that step failed (docs/decisions.md, "The isolation
 * check's probes are steps").
 */
export function isolationActivities(deps: ActivityDeps) {
  return {
    ensureCanaries: () => ensureCanaries(deps),
    'api.isolation-probe': (input: ProbeInput): Promise<ProbeAnswer> => apiProbe(deps, input),
    'dns.isolation-probe': (input: ProbeInput): Promise<ProbeAnswer> => dnsProbe(deps, input),
    'state.isolation-probe': (input: ProbeInput): Promise<ProbeAnswer> => stateProbe(deps, input),
    'broker.isolation-probe': (input: ProbeInput): Promise<ProbeAnswer> => brokerProbe(deps, input),
    'log-store.isolation-probe': (input: ProbeInput): Promise<ProbeAnswer> => logStoreProbe(deps, input),
    'dashboards.isolation-probe': (input: ProbeInput): Promise<ProbeAnswer> => dashboardsProbe(deps, input),
    'wifi.isolation-probe': (input: ProbeInput): Promise<ProbeAnswer> => wifiProbe(deps, input),
    'certificates.isolation-probe': (input: ProbeInput): Promise<ProbeAnswer> => certificatesProbe(deps, input),
    /** The check's result, kept for `GET /v1/isolation-checks/latest`. */
    saveIsolationCheck: (input: { runId: string; workflowId: string; result: IsolationCheckResult }): Promise<void> =>
      saveIsolationCheck(deps.db, {
        runId: input.runId,
        workflowId: input.workflowId,
        startedAt: new Date(input.result.started_at),
        passed: input.result.passed,
        result: input.result,
      }),
  };
}
