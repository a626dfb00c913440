import { ApplicationFailure } from '@temporalio/activity';
import { asBackendStep } from '../step.js';
import { getTenantRecord, recordStep, setTenantStatus, updateTenant } from '../../db/queries/tenants.js';
import type { ObjectOutcome } from '../ensure.js';
import type { TenantActivityDeps } from './deps.js';
import { deriveIdentity } from './derive.js';
import { republishNames, withDnsWrites } from '../records/publish.js';
import { untagged } from '../step.js';
import { ensureTenantReservations } from '../devices/reservations.js';
import { dashboardUsername, viewTenant, type Outcome, type StepName, type TenantSecrets, type TenantView } from './view.js';

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

  return {
    stepDns: steps.dns,
    stepResolver: steps.resolver,
    stepState: steps.state,
    stepNetwork: steps.network,
    stepDeviceAddress: steps['device-address'],
    stepLogStore: steps['log-store'],
    stepDashboards: steps.dashboards,

    /** Records a failed step and answers the partial tenant with the secrets issued so far. */
    async failAttempt(input: { name: string; step: StepName; secrets: TenantSecrets }): Promise<TenantView> {
      await recordStep(deps.db, input.name, input.step, false);
      return view(input.name, input.secrets);
    },

    /** Every step passed: the tenant is ready. */
    async finishAttempt(input: { name: string; secrets: TenantSecrets; outcome: Outcome }): Promise<TenantView> {
      await setTenantStatus(deps.db, input.name, 'ready');
      return view(input.name, input.secrets, input.outcome);
    },

    async tenantView(input: { name: string; secrets: TenantSecrets; outcome?: Outcome }): Promise<TenantView> {
      return view(input.name, input.secrets, input.outcome);
    },
  };
}
