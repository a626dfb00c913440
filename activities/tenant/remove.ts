import { RECONCILE_AREAS, type RemovalStep, type StepName } from '../../core/step-table.js';
import type { ObjectOutcome } from '../../core/backend-outcome.js';
import { leftAlone, lifeText, whatFinishes, type Life } from '../../core/object-life.js';
import { objectPath } from '../../contracts/ids.js';
import { livesOf } from '../object-lives.js';

export type ReconcileArea = (typeof RECONCILE_AREAS)[number];
import { holdsDeviceAddresses } from '../../db/queries/device-addresses.js';
import { deleteTenantRow, getTenantRow, revokeTenantToken, setTenantStatus } from '../../db/queries/tenants.js';
import { hasWorkloads } from '../../db/queries/workloads.js';
import type { Refusal } from '../../contracts/tenant.js';
import { createStepsFor, removalStepsFor } from '../tenant-steps.js';
import type { ActivityDeps } from '../deps.js';
import type { Db } from '../../db/registry.js';
import { auditTenantDelete, UNKNOWN_ACTOR } from '../../db/queries/audit.js';
import { deriveIdentity } from '../../core/identity.js';

export type DeleteStart = { kind: 'proceed'; index: number } | Refusal;
export type DeletePlan = { kind: 'proceed'; steps: RemovalStep[] } | Refusal;
/**
 * `areas`: the objects' reconcile activities this site runs after the tenant's steps. `holder`: a
 * plan of a tenant that is not settled (core/object-life.ts: its create or delete in flight or
 * parked, or unfinished) reports every object so (`in-flight` with the run), whatever it finds.
 */
export type ReconcileStart = { kind: 'proceed'; index: number; steps: StepName[]; areas: ReconcileArea[]; holder?: Omit<ObjectOutcome, 'object'> } | Refusal;

const notFound: Refusal = { kind: 'refused', error: 'not_found', message: 'tenant not found' };

/** Why a reconcile leaves a tenant alone, naming the run that holds it and the call that finishes it. */
function notSettled(status: string, life: Life): string {
  if (status === 'deleting') return `tenant is being deleted (${lifeText(life)}); repeat the delete to finish it`;
  if (status !== 'ready') return `tenant is not ready: its create has not finished (${lifeText(life)}); repeat the create to resume it`;
  return `tenant is held by ${lifeText(life)}; ${whatFinishes(life)}, then reconcile`;
}

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

    /**
     * The state table allows reconcile from `ready` only, and a tenant a run holds is that run's
     * (its create or delete, parked after a failed step: the repeat of that call finishes it): a
     * reconcile of it is refused naming the run; a plan, which changes nothing, reports every
     * object as left to that run.
     */
    async beginReconcile(input: { name: string; plan?: boolean }): Promise<ReconcileStart> {
      const row = await getTenantRow(db, input.name);
      if (!row) return notFound;
      const life = (await livesOf(deps, input.name))(objectPath.tenant(input.name), { registered: true, finished: row.status === 'ready' });
      const held = leftAlone(`tenant ${input.name}`, life);
      if (held && !input.plan) return { kind: 'refused', error: 'conflict', message: notSettled(row.status, life) };
      return {
        kind: 'proceed',
        index: row.index,
        steps: createStepsFor(site, { holdsDeviceAddresses: await holdsDeviceAddresses(db, input.name) }),
        areas: RECONCILE_AREAS.filter((a) =>
          a === 'wifi.reconcile-keys' ? deps.ports.wifi !== undefined : a === 'broker.reconcile-accounts' ? deps.ports.broker !== undefined : true,
        ),
        ...(held ? { holder: { result: held.result, ...(held.run ? { run: held.run } : {}), ...(held.note ? { note: held.note } : {}) } } : {}),
      };
    },
  };
}
