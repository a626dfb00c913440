import { ApplicationFailure } from '@temporalio/activity';
import { asBackendStep } from '../step.js';
import { getTenantRecord, getStepOutcomes, recordStep, setTenantStatus, updateTenant } from '../../db/queries/tenants.js';
import type { ObjectOutcome } from '../ensure.js';
import type { StepReport } from '../../workflows/shared.js';
import type { TenantActivityDeps } from './deps.js';
import { deriveIdentity } from './derive.js';
import { republishNames, withDnsWrites } from '../records/publish.js';
import { previousProgress, recordProgress, untagged } from '../step.js';
import { ensureTenantReservations } from '../devices/reservations.js';
import { dashboardUsername, viewTenant, type Outcome, type StepName, type TenantSecrets, type TenantView } from './view.js';

/** The heartbeat of runSteps (readable in the Temporal UI through the codec). */
interface StepsProgress {
  completed: number;
  running?: StepName;
  report: StepReport[];
  /** Attempts of the running step that a backend fault ended (a dead worker is not counted). */
  faults?: number;
}

/**
 * Attempts a step gets for transient backend faults before it is reported failed, as when each
 * step was its own activity. The activity's own retry policy allows more attempts than this, for
 * attempts that end because a worker died: those are no fault of the step.
 */
export const STEP_FAULT_ATTEMPTS = 3;

/**
 * A step's failure with the report of the steps that passed before it as a second detail; no
 * longer retryable once the step has spent its attempts.
 */
function withReport(err: unknown, report: StepReport[], spent: boolean): unknown {
  if (!(err instanceof ApplicationFailure)) return err;
  return ApplicationFailure.create({
    message: err.message,
    type: err.type ?? undefined,
    nonRetryable: (err.nonRetryable ?? false) || spent,
    details: [err.details?.[0], report],
  });
}

export interface StepInput {
  name: string;
  index: number;
  secrets: TenantSecrets;
}

/**
 * Runs one backend step and records its success. A failure is logged here with its detail (which
 * may name a backend host) and leaves as an ApplicationFailure whose message names only the step;
 * a backend that refused on purpose is not retried.
 */
export function runStep(
  deps: TenantActivityDeps,
  step: StepName,
  tenant: string,
  work: () => Promise<ObjectOutcome[]>,
): Promise<ObjectOutcome[]> {
  return asBackendStep(deps.log, step, { tenant }, async () => {
    const outcomes = await work();
    await recordStep(deps.db, tenant, step, true);
    const changed = outcomes.filter((o) => o.result !== 'in-place');
    deps.log.info({ tenant, step, changed }, changed.length ? 'step corrected backend objects' : 'step in place');
    return outcomes;
  });
}

export function stepActivities(deps: TenantActivityDeps) {
  const { site, ports } = deps;
  const id = (i: StepInput) => deriveIdentity(site, i.name, i.index);

  const steps: Record<StepName, (i: StepInput) => Promise<ObjectOutcome[]>> = {
    dns: (i) =>
      runStep(deps, 'dns', i.name, async () => {
        const t = id(i);
        // One DNS write at a time per worker: PowerDNS on SQLite refuses concurrent writes.
        const zones = await withDnsWrites(deps, () =>
          ports.dns.ensure({ tenant: i.name, zone: t.zone, reverseZone: t.reverseZone, tsigKeyName: t.tsigKeyName, tsigAlgorithm: t.tsigAlgorithm, tsigSecret: i.secrets.tsigSecret! }),
        );
        // The names the service published for workloads and records come back with a recreated zone.
        return [...zones, ...(await republishNames(deps, i.name, i.index))];
      }),
    resolver: (i) =>
      runStep(deps, 'resolver', i.name, () => {
        const t = id(i);
        return ports.resolver.ensure({ zones: [t.zone, t.reverseZone] });
      }),
    state: (i) =>
      runStep(deps, 'state', i.name, () => {
        const t = id(i);
        return ports.state.ensure({ tenant: i.name, accessKey: t.stateAccessKey, secretKey: i.secrets.stateSecret!, prefix: t.stateKeyPrefix });
      }),
    network: (i) =>
      runStep(deps, 'network', i.name, () => {
        const t = id(i);
        return ports.network.ensure({ tenant: i.name, index: i.index, vrfVni: t.vrfVni, vnetId: t.vnet, vnetTag: t.vnetVniBase, subnet: t.subnet, gateway: t.gateway });
      }),
    // Every reservation the tenant holds: on the router and its name (a lost one comes back).
    'device-address': (i) => runStep(deps, 'device-address', i.name, () => untagged(() => ensureTenantReservations(deps, i.name, i.index))),
    'log-store': (i) =>
      runStep(deps, 'log-store', i.name, () => {
        const t = id(i);
        return ports.logStore!.ensure({ tenant: i.name, accountId: t.logAccountId, ingestToken: i.secrets.logIngestToken!, readToken: i.secrets.logReadToken! });
      }),
    dashboards: (i) =>
      runStep(deps, 'dashboards', i.name, async () => {
        const t = id(i);
        const { orgId, outcomes } = await ports.dashboards!.ensure({
          tenant: i.name,
          username: dashboardUsername(i.name),
          password: i.secrets.dashboardPassword!,
          accountId: t.logAccountId,
          readToken: i.secrets.logReadToken!,
        });
        await updateTenant(deps.db, i.name, { dashboardOrgId: orgId });
        return outcomes;
      }),
  };

  async function view(name: string, secrets: TenantSecrets, outcome?: Outcome): Promise<TenantView> {
    const rec = await getTenantRecord(deps.db, deps.keys, name);
    if (!rec) throw ApplicationFailure.nonRetryable('tenant vanished from the registry', 'TenantGone');
    return viewTenant(site, rec, secrets, outcome);
  }

  async function finish(name: string, secrets: TenantSecrets, outcome: Outcome): Promise<TenantView> {
    await setTenantStatus(deps.db, name, 'ready');
    return view(name, secrets, outcome);
  }

  /** Runs `steps` in order, resuming after the last step an earlier attempt of this activity passed. */
  async function runInOrder(input: StepInput & { steps: StepName[] }): Promise<StepReport[]> {
    const earlier = previousProgress<StepsProgress>();
    const report: StepReport[] = earlier?.report ?? [];
    for (let k = earlier?.completed ?? 0; k < input.steps.length; k++) {
      const step = input.steps[k]!;
      const faults = earlier?.running === step ? (earlier.faults ?? 0) : 0;
      recordProgress({ completed: k, running: step, report, faults } satisfies StepsProgress);
      try {
        report.push({ step, ok: true, objects: await steps[step](input) });
      } catch (err) {
        // Counted before the failure leaves, so the next attempt knows what this step has spent.
        recordProgress({ completed: k, running: step, report, faults: faults + 1 } satisfies StepsProgress);
        throw withReport(err, report, faults + 1 >= STEP_FAULT_ATTEMPTS);
      }
    }
    recordProgress({ completed: input.steps.length, report } satisfies StepsProgress);
    return report;
  }

  return {
    stepDns: steps.dns,
    stepResolver: steps.resolver,
    stepState: steps.state,
    stepNetwork: steps.network,
    stepDeviceAddress: steps['device-address'],
    stepLogStore: steps['log-store'],
    stepDashboards: steps.dashboards,

    /**
     * A tenant's steps, in order, in one activity (create and reconcile): one task round trip
     * through Temporal instead of one per step (docs/decisions.md). Each step still records its
     * own outcome and reports its objects; progress rides on the heartbeat, so a retry after a
     * transient fault or a dead worker resumes at the step it stopped in. A failure leaves tagged
     * with its step, as a single step's does, and carries the report of the steps before it.
     */
    runSteps: (input: StepInput & { steps: StepName[] }) => runInOrder(input),

    /**
     * A create's steps and then the tenant made ready, in one activity: the registry write that
     * ends a create needs no workflow task of its own (docs/performance.md).
     */
    async runStepsAndFinish(input: StepInput & { steps: StepName[]; outcome: Outcome }): Promise<TenantView> {
      await runInOrder(input);
      return finish(input.name, input.secrets, input.outcome);
    },

    /** Records a failed step and answers the partial tenant with the secrets issued so far. */
    async failAttempt(input: { name: string; step: StepName; secrets: TenantSecrets }): Promise<TenantView> {
      await recordStep(deps.db, input.name, input.step, false);
      return view(input.name, input.secrets);
    },

    /**
     * For a failure that did not say its step (the activity timed out): the first of `steps` not
     * passed; null when all passed (what failed came after them: the registry write ending a create).
     */
    async firstUnpassedStep(input: { name: string; steps: StepName[] }): Promise<StepName | null> {
      const passed = await getStepOutcomes(deps.db, input.name);
      return input.steps.find((s) => passed.get(s) !== true) ?? null;
    },

    /** Every step passed: the tenant is ready. */
    finishAttempt: (input: { name: string; secrets: TenantSecrets; outcome: Outcome }) => finish(input.name, input.secrets, input.outcome),

    async tenantView(input: { name: string; secrets: TenantSecrets; outcome?: Outcome }): Promise<TenantView> {
      return view(input.name, input.secrets, input.outcome);
    },
  };
}
