import { RECONCILE_AREAS, type RemovalStep, type StepName } from '../../core/step-table.js';

export type ReconcileArea = (typeof RECONCILE_AREAS)[number];
import { holdsDeviceAddresses } from '../../db/queries/device-addresses.js';
import { deleteTenantRow, getTenantRow, revokeTenantToken, setTenantStatus } from '../../db/queries/tenants.js';
import { hasWorkloads } from '../../db/queries/workloads.js';
import type { Refusal } from '../../contracts/tenant.js';
import { createStepsFor, removalStepsFor } from '../step-registry.js';
import type { ActivityDeps } from '../deps.js';
import type { Db } from '../../db/registry.js';
import { auditTenantDelete, UNKNOWN_ACTOR } from '../../db/queries/audit.js';
import { deriveIdentity } from '../../core/identity.js';

export type DeleteStart = { kind: 'proceed'; index: number } | Refusal;
export type DeletePlan = { kind: 'proceed'; steps: RemovalStep[] } | Refusal;
/** `areas`: the objects' reconcile activities this site runs after the tenant's steps. */
export type ReconcileStart = { kind: 'proceed'; index: number; steps: StepName[]; areas: ReconcileArea[] } | Refusal;

const notFound: Refusal = { kind: 'refused', error: 'not_found', message: 'tenant not found' };

/**
 * The registry side of delete and reconcile. A delete removes, in the spec's order (core/step-table.ts),
 * each step's backend objects, each as its own activity, then the registry row. The fabric network
 * stays: the operator removes it, and delete is refused while the fabric still carries the zone.
 */
export function lifecycleActivities(deps: ActivityDeps) {
  const { db, site } = deps;

  return {
    async beginDelete(input: { name: string }): Promise<DeleteStart> {
      const row = await getTenantRow(db, input.name);
      if (!row) return notFound;
      if (await hasWorkloads(db, input.name)) return { kind: 'refused', error: 'conflict', message: 'the tenant still has workloads; delete them first' };
      return { kind: 'proceed', index: row.index };
    },

    /** After the fabric check: the tenant is `deleting` until its row is removed. */
    async markDeleting(input: { name: string }): Promise<DeletePlan> {
      const row = await getTenantRow(db, input.name);
      if (!row) return notFound;
      await setTenantStatus(db, input.name, 'deleting');
      return { kind: 'proceed', steps: removalStepsFor(site, { holdsDeviceAddresses: await holdsDeviceAddresses(db, input.name) }) };
    },

    async forgetTenant(input: { name: string; actor?: string }): Promise<void> {
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // A deleted tenant's token must not restore it: only a lost registry lets a token do that.
        const row = await getTenantRow(tx, input.name);
        if (!row) return;
        await revokeTenantToken(tx, input.name, row.apiTokenHash);
        await deleteTenantRow(tx, input.name);
        const id = deriveIdentity(site, input.name, row.index);
        await auditTenantDelete(tx, { actor: input.actor ?? UNKNOWN_ACTOR, tenant: input.name, zones: { zone: id.zone, reverse_zone: id.reverseZone } });
      });
    },

    async beginReconcile(input: { name: string }): Promise<ReconcileStart> {
      const row = await getTenantRow(db, input.name);
      if (!row) return notFound;
      // The state table allows reconcile from `ready` only: a create or a delete that stopped half way is finished by repeating it.
      if (row.status === 'deleting') return { kind: 'refused', error: 'conflict', message: 'tenant is being deleted; repeat the delete to finish it' };
      if (row.status !== 'ready')
        return { kind: 'refused', error: 'conflict', message: 'tenant is not ready: its create has not finished; repeat the create to resume it' };
      return {
        kind: 'proceed',
        index: row.index,
        steps: createStepsFor(site, { holdsDeviceAddresses: await holdsDeviceAddresses(db, input.name) }),
        areas: RECONCILE_AREAS.filter((a) =>
          a === 'wifi.reconcile-keys' ? deps.ports.wifi !== undefined : a === 'broker.reconcile-accounts' ? deps.ports.broker !== undefined : true,
        ),
      };
    },
  };
}
