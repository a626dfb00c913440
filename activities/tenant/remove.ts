import { ApplicationFailure } from '@temporalio/activity';
import { deleteTenantRow, getTenantRow, openSecrets, setTenantStatus } from '../../db/queries/tenants.js';
import type { Refusal } from '../../workflows/shared.js';
import { removeTenantBrokerAccounts } from '../broker-accounts/remove-all.js';
import { untagged } from '../step.js';
import { removeTenantReservations } from '../devices/reservations.js';
import { holdsDeviceAddresses } from '../../db/queries/device-addresses.js';
import { revokeTenantWifiKeys } from '../wifi-keys/activities.js';
import { hasWorkloads } from '../../db/queries/workloads.js';
import { withDnsWrites } from '../records/publish.js';
import type { TenantActivityDeps } from './deps.js';
import { deriveIdentity } from './derive.js';
import { runStep } from './steps.js';
import { dashboardUsername, stepsFor, type StepName, type TenantSecrets } from './view.js';

/**
 * Delete removes, in the spec's order: broker accounts, device address reservations, resolver
 * forwards, zones and the update key, the state-store user and policy, the log-store tokens, the
 * dashboard login and organization, then the registry row. The fabric network stays: the operator
 * removes it, and delete is refused while the fabric still carries the zone.
 */
export const REMOVAL_STEPS = ['broker', 'device-address', 'wifi', 'resolver', 'dns', 'state', 'log-store', 'dashboards'] as const satisfies readonly (StepName | 'broker' | 'wifi')[];
export type RemovalStep = (typeof REMOVAL_STEPS)[number];

export type DeleteStart = { kind: 'proceed'; index: number; steps: RemovalStep[] } | Refusal;
export type ReconcileStart = { kind: 'proceed'; index: number; secrets: TenantSecrets; steps: StepName[] } | Refusal;

export function lifecycleActivities(deps: TenantActivityDeps) {
  const { db, site, ports } = deps;

  return {
    async beginDelete(input: { name: string }): Promise<DeleteStart> {
      const row = await getTenantRow(db, input.name);
      if (!row) return { kind: 'refused', error: 'not_found', message: 'tenant not found' };
      if (await hasWorkloads(db, input.name)) return { kind: 'refused', error: 'conflict', message: 'the tenant still has workloads; delete them first' };
      if (await ports.network.hasZone(input.name).catch((err) => {
        deps.log.error({ tenant: input.name, err: String(err) }, 'fabric check failed');
        throw ApplicationFailure.create({ message: 'backend step "network" failed', type: 'BackendFailed' });
      })) {
        return { kind: 'refused', error: 'conflict', message: 'the fabric still carries the tenant zone; remove it in the fabric first' };
      }
      await setTenantStatus(db, input.name, 'deleting');
      const holds = await holdsDeviceAddresses(db, input.name);
      const steps = REMOVAL_STEPS.filter(
        (s) => (s !== 'broker' || ports.broker) && (s !== 'device-address' || holds) && (s !== 'log-store' || ports.logStore) && (s !== 'dashboards' || ports.dashboards),
      );
      return { kind: 'proceed', index: row.index, steps };
    },

    async removeFromBackend(input: { name: string; index: number; step: RemovalStep }): Promise<void> {
      if (input.step === 'broker') return removeTenantBrokerAccounts(deps, input.name);
      // Wi-Fi keys, `admission` included, are revoked on delete (the spec gives them no place in the order).
      if (input.step === 'wifi') return revokeTenantWifiKeys(deps, input.name);
      const step = input.step;
      const t = deriveIdentity(site, input.name, input.index);
      await runStep(deps, step, input.name, async () => {
        switch (step) {
          case 'device-address':
            await untagged(() => removeTenantReservations(deps, input.name, input.index));
            break;
          case 'resolver':
            await ports.resolver.remove({ zones: [t.zone, t.reverseZone] });
            break;
          case 'dns':
            await withDnsWrites(deps, () => ports.dns.remove({ tenant: input.name, zone: t.zone, reverseZone: t.reverseZone, tsigKeyName: t.tsigKeyName }));
            break;
          case 'state':
            await ports.state.remove({ tenant: input.name, accessKey: t.stateAccessKey });
            break;
          case 'log-store':
            await ports.logStore?.remove({ tenant: input.name });
            break;
          case 'dashboards':
            await ports.dashboards?.remove({ tenant: input.name, username: dashboardUsername(input.name) });
            break;
        }
        return [];
      });
    },

    async forgetTenant(input: { name: string }): Promise<void> {
      await deleteTenantRow(db, input.name);
    },

    async beginReconcile(input: { name: string }): Promise<ReconcileStart> {
      const row = await getTenantRow(db, input.name);
      if (!row) return { kind: 'refused', error: 'not_found', message: 'tenant not found' };
      if (row.status === 'deleting') return { kind: 'refused', error: 'conflict', message: 'tenant is being deleted' };
      return { kind: 'proceed', index: row.index, secrets: openSecrets(deps.keys, row), steps: stepsFor(site, await holdsDeviceAddresses(db, input.name)) };
    },

    async finishReconcile(input: { name: string }): Promise<void> {
      await setTenantStatus(db, input.name, 'ready');
    },
  };
}
