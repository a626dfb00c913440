import { ApplicationFailure } from '@temporalio/activity';
import { activityInfo } from '../registry-away.js';
import type { Sealed } from '../../core/sealed.js';
import { CREATE_STEPS, type StepName } from '../../core/step-table.js';
import { getTenantRecord, getTenantRow, openSecrets, recordStep, setTenantStatus } from '../../db/queries/tenants.js';
import { openValue, sealValue } from '../../db/seal.js';
import type { ActivityDeps } from '../deps.js';
import type { Db } from '../../db/registry.js';
import { auditTenantCreate, lastAuditOf, UNKNOWN_ACTOR } from '../../db/queries/audit.js';
import { deriveIdentity } from '../../core/identity.js';
import { viewTenant, type Outcome, type TenantSecrets, type TenantView } from '../../core/tenant-view.js';

/**
 * What an answer carries of the tenant's secrets. A create's: every secret the registry holds for
 * the tenant after its steps (a restore's steps may have adopted log tokens the gateway held), and
 * the API token the attempt issued or was given (the registry keeps only its hash). A reconcile's:
 * the log tokens and the dashboard password only.
 */
export type AnswerOf = { kind: 'create'; carried: Sealed<TenantSecrets> } | { kind: 'reconcile' };

export interface Answer {
  tenant: TenantView;
  secrets: Sealed<TenantSecrets>;
}

/** A create's answer in the audit log, written in the transaction of the registry change it records. */
async function auditCreate(deps: ActivityDeps, db: Db, e: { name: string; outcome: string; actor?: string; failedStep?: string }): Promise<void> {
  const row = await getTenantRow(db, e.name);
  if (!row) return;
  const id = deriveIdentity(deps.site, e.name, row.index);
  const entry = {
    actor: e.actor ?? UNKNOWN_ACTOR,
    tenant: e.name,
    outcome: e.outcome,
    index: row.index,
    zones: { zone: id.zone, reverse_zone: id.reverseZone },
    ...(e.failedStep ? { failedStep: e.failedStep } : {}),
  };
  if (await recordedByAnEarlierTry(db, entry)) return;
  await auditTenantCreate(db, entry);
}

/**
 * A retry of the activity whose earlier try committed and then lost the registry before it could
 * answer (the database-cut test): its entry is there already. Only a retry looks, and only at the
 * tenant's newest entry since the activity was scheduled (the run holds the tenant's lease, so no
 * other run wrote one meanwhile); the same entry from an earlier call stays a separate one.
 */
async function recordedByAnEarlierTry(db: Db, entry: { actor: string; tenant: string; outcome: string; failedStep?: string }): Promise<boolean> {
  const info = activityInfo();
  if (!info || info.attempt <= 1) return false;
  const last = await lastAuditOf(db, entry.tenant);
  if (!last || last.at.getTime() < info.scheduledTimestampMs - SCHEDULE_SKEW_MS || last.actor !== entry.actor) return false;
  const detail = (last.detail ?? {}) as { outcome?: unknown; failed_step?: unknown };
  return detail.outcome === entry.outcome && (detail.failed_step ?? undefined) === entry.failedStep;
}

/** The worker's clock against the database's, for `recordedByAnEarlierTry`. */
const SCHEDULE_SKEW_MS = 5_000;

/**
 * The registry writes that end an attempt of a create or reconcile, and the answer: the tenant as
 * the registry holds it, without secrets, and its secrets sealed, which the API opens and puts in.
 */
export function attemptActivities(deps: ActivityDeps) {
  async function view(name: string, outcome?: Outcome): Promise<TenantView> {
    const rec = await getTenantRecord(deps.db, deps.keys, name);
    if (!rec) throw ApplicationFailure.nonRetryable('tenant vanished from the registry', 'TenantGone');
    return viewTenant(deps.site, rec, {}, outcome);
  }

  async function answer(name: string, of: AnswerOf, outcome?: Outcome): Promise<Answer> {
    const tenant = await view(name, outcome);
    const row = await getTenantRow(deps.db, name);
    const held = row ? openSecrets(deps.keys, row) : {};
    const shown: TenantSecrets =
      of.kind === 'create'
        ? { ...held, apiToken: openValue(deps.keys, of.carried)?.apiToken }
        : { logIngestToken: held.logIngestToken, logReadToken: held.logReadToken, dashboardPassword: held.dashboardPassword };
    return { tenant, secrets: sealValue(deps.keys, shown) };
  }

  return {
    /**
     * Records a failed step and answers the partial tenant. A create's failed attempt registered
     * the tenant and issued its token: on the audit record too, with the step.
     */
    async failAttempt(input: { name: string; step: string; answer: AnswerOf; actor?: string }): Promise<Answer> {
      await deps.db.transaction(async (tx) => {
        // Only the tenant's own steps are rows of its `steps` (the spec's enum); an area of its objects is not.
        if ((CREATE_STEPS as string[]).includes(input.step)) await recordStep(tx as unknown as Db, input.name, input.step as StepName, false);
        if (input.answer.kind === 'create')
          await auditCreate(deps, tx as unknown as Db, { name: input.name, outcome: 'failed', actor: input.actor, failedStep: input.step });
      });
      return answer(input.name, input.answer);
    },

    /** Every step of a create passed: the tenant is ready, and the audit log says who made it so. */
    async finishAttempt(input: { name: string; outcome: Outcome; carried: Sealed<TenantSecrets>; actor?: string }): Promise<Answer> {
      await deps.db.transaction(async (tx) => {
        await setTenantStatus(tx as unknown as Db, input.name, 'ready');
        await auditCreate(deps, tx as unknown as Db, { name: input.name, outcome: input.outcome, actor: input.actor });
      });
      return answer(input.name, { kind: 'create', carried: input.carried }, input.outcome);
    },

    /**
     * A plan's answer: the tenant as the registry holds it, nothing written, no secret; undefined
     * when a delete finished while the plan read (the plan answers 404, as it would have after).
     */
    async viewForPlan(input: { name: string }): Promise<TenantView | undefined> {
      const rec = await getTenantRecord(deps.db, deps.keys, input.name);
      return rec ? viewTenant(deps.site, rec, {}) : undefined;
    },

    /** Every step of a reconcile passed. */
    async finishReconcile(input: { name: string }): Promise<Answer> {
      await setTenantStatus(deps.db, input.name, 'ready');
      return answer(input.name, { kind: 'reconcile' }, 'reconciled');
    },
  };
}
