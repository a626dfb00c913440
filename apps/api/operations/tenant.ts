import type { Client } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { tokenHash, verifyTenantToken } from '../../../core/credentials/api-token.js';
import { viewTenant, withSecrets, type TenantSecrets, type TenantView } from '../../../core/tenant-view.js';
import type { Sealed } from '../../../core/sealed.js';
import { openValue, sealValue } from '../../../db/seal.js';
import { issueAdmission, spendAdmission } from '../../../db/queries/admissions.js';
import { isTenantTokenRevoked, listTenantRecords, tenantExists, tenantIndex } from '../../../db/queries/tenants.js';
import type { Registry } from '../../../db/registry.js';
import { tenantCreate, tenantDelete, tenantPlan, tenantReconcile } from '../../../workflows/index.js';
import { savedPlans, type AppliedPlanResult, type SavedPlan } from './saved-plans.js';
import {
  attemptTenantCreate,
  attemptTenantDelete,
  type CreateRequest,
  type CreateResult,
  type DeleteResult,
  type PlanResult,
  type ReconcileResult,
  type RestoreSecrets,
} from '../../../contracts/tenant.js';
import type { Config } from '../../config/env.js';
import { sealKeys } from '../../config/keys.js';
import type { Site } from '../../config/env.js';
import { admissionKeys } from './device.js';
import { runs } from '../runs.js';
import { siteLostAnswers } from '../lost-answers.js';
import { conditioned, tenantViews } from '../tenant-views.js';
import { runIds } from '../../../contracts/ids.js';
import { isCanary } from '../../../core/canaries.js';
import { isolationCheckOperations, type IsolationCheckOperations } from './isolation-check.js';

/** A create as the route asks it: the restore secrets in clear (they are sealed on the way to Temporal). */
export type CreateCall = Omit<CreateRequest, 'restore'> & { restore?: RestoreSecrets };

/** What the tenant routes ask of the service: runs on Temporal, reads from the registry. */
export interface TenantOperations {
  /** Results carry their secrets in the tenant view, ready to answer. */
  create(req: CreateCall): Promise<CreateResult>;
  /** `actor`: who asks, for the audit entry the worker writes with the removal. */
  delete(name: string, actor?: string): Promise<DeleteResult>;
  reconcile(name: string): Promise<ReconcileResult>;
  /** What a reconcile would do, nothing changed, saved to be applied by id; the tenant without secrets. */
  plan(name: string, opts: { prune: boolean; actor: string }): Promise<PlanResult & { saved?: SavedPlan }>;
  /** A saved plan carried out, or refused when what it covered moved (operations/saved-plans.ts). */
  applyPlan(name: string, id: string, actor: string): Promise<AppliedPlanResult>;
  get(name: string): Promise<TenantView | undefined>;
  /** Every tenant; the isolation check's canaries only when asked (`canaries`). */
  list(opts?: { canaries?: boolean }): Promise<TenantView[]>;
  /** The isolation check: run now, the latest result. */
  isolation: IsolationCheckOperations;
  isRegistered(name: string): Promise<boolean>;
  /** At a site with a tenant developer network the answer carries the admission's new Wi-Fi key. */
  admit(input: {
    name: string;
    mac?: string;
    actor: string;
  }): Promise<{ name: string; enrollment_token: string; expires_at: string; wifi?: { ssid: string; psk: string; mac?: string } }>;
  withdrawAdmission(name: string, actor: string): Promise<boolean>;
  spendEnrollment(tokenHash: string): Promise<boolean>;
  /** The tenant a genuine tenant token names (MAC verified, registry not consulted). */
  tokenTenant(token: string): string | undefined;
  /** Whether a tenant token was revoked for good (replaced, or its tenant deleted). */
  tokenRevoked(token: string): Promise<boolean>;
}

/** What the tenant operations share, built once: the seal keys and the runner. */
interface Tenants {
  config: Config & { site: Site };
  site: Site;
  registry: Registry;
  keys: ReturnType<typeof sealKeys>;
  admission: ReturnType<typeof admissionKeys>;
  run: ReturnType<typeof runs>;
}

/** Tenant operations on Temporal (create, delete, reconcile) and the registry (reads). */
export function tenantOperations(config: Config & { site: Site }, registry: Registry, client: Client): TenantOperations {
  const { site } = config;
  const keys = sealKeys(site);
  const taskQueue = config.env.TEMPORAL_TASK_QUEUE;
  const admission = admissionKeys({ site, registry, client, taskQueue, parkedTimeoutMs: config.parkedRunTimeoutMs });
  // A create or delete whose answer was lost is answered to its repeat at any instance (apps/api/lost-answers.ts).
  const run = runs(client, taskQueue, config.parkedRunTimeoutMs, siteLostAnswers(site, registry.db));
  const ctx: Tenants = { config, site, registry, keys, admission, run };
  const plans = savedPlans(registry.db, {
    plan: async (name) =>
      run.execute(tenantPlan, { workflowId: runIds.tenantPlan(name), args: [{ name }], ...(await labels(ctx, 'plan the reconcile of', name)) }),
    reconcile: (name, input) => reconcile(ctx, name, input),
  });

  return {
    create: (call: CreateCall): Promise<CreateResult> => create(ctx, call),
    delete: (name: string, actor?: string): Promise<DeleteResult> => deleteTenant(ctx, name, actor),
    reconcile: (name: string): Promise<ReconcileResult> => reconcile(ctx, name, {}),
    plan: (name, opts) => plans.plan(name, opts),
    applyPlan: (name, id, actor) => plans.apply(name, id, actor),
    get: tenantViews(site, registry.db, keys),
    list: async (opts = {}) =>
      conditioned(
        registry.db,
        (await listTenantRecords(registry.db, keys)).filter((r) => opts.canaries || !isCanary(r.name)).map((r) => viewTenant(site, r)),
      ),
    isolation: isolationCheckOperations(client, taskQueue, registry.db),
    isRegistered: (name) => tenantExists(registry.db, name),
    admit: (input) => admit(ctx, input),
    withdrawAdmission: (name, actor) => admission.withdraw(name, actor),
    spendEnrollment: (hash) => spendAdmission(registry.db, hash),
    tokenTenant: (token) => verifyTenantToken(site.tokenKey, token),
    tokenRevoked: (token) => isTenantTokenRevoked(registry.db, tokenHash(token)),
  };
}

/** The run's static summary names operation, tenant and (when registered) index. */
async function labels(ctx: Tenants, operation: string, name: string) {
  const index = await tenantIndex(ctx.registry.db, name);
  return {
    tenant: name,
    extra: {
      staticSummary: `${operation} tenant ${name}${index !== undefined ? ` (index ${index})` : ''}`,
      ...(index !== undefined ? { memo: { index } } : {}),
    },
  };
}

/** The secrets a run handed back sealed, put into the tenant it answers. */
function reveal<T extends { tenant?: TenantView; secrets?: Sealed<TenantSecrets> }>(ctx: Tenants, r: T): T {
  if (!r.tenant) return r;
  const { secrets, ...rest } = r;
  return { ...rest, tenant: withSecrets(r.tenant, openValue(ctx.keys, secrets) ?? {}) } as T;
}

async function create(ctx: Tenants, call: CreateCall): Promise<CreateResult> {
  const { restore, ...rest } = call;
  const req = { ...rest, ...(restore ? { restore: sealValue(ctx.keys, restore) } : {}) };
  const labelled = await labels(ctx, 'create', req.name);
  const input = { name: req.name, parkedTimeoutMs: ctx.config.parkedRunTimeoutMs };
  const workflowId = runIds.tenantCreate(req.name);
  // A restore asks for the secrets it carries, not for an answer an earlier create lost.
  const result = await ctx.run.attempt(tenantCreate, attemptTenantCreate, { workflowId, args: [input], ...labelled, collect: !restore }, req);
  return result.kind === 'refused' ? result : reveal(ctx, result);
}

async function deleteTenant(ctx: Tenants, name: string, actor?: string): Promise<DeleteResult> {
  const workflowId = runIds.tenantDelete(name);
  const labelled = await labels(ctx, 'delete', name);
  const result = await ctx.run.call(tenantDelete, attemptTenantDelete, { workflowId, ...labelled }, { name, ...(actor ? { actor } : {}) });
  return ctx.run.superseded(result, 'deleted', [runIds.tenantCreate(name)]);
}

async function reconcile(ctx: Tenants, name: string, opts: { prune?: boolean; pruneOnly?: string[] }): Promise<ReconcileResult> {
  const input = { name, ...(opts.prune ? { prune: true, ...(opts.pruneOnly ? { pruneOnly: opts.pruneOnly } : {}) } : {}) };
  const result = await ctx.run.execute(tenantReconcile, { workflowId: runIds.tenantReconcile(name), args: [input], ...(await labels(ctx, 'reconcile', name)) });
  return result.kind === 'refused' ? result : reveal(ctx, result);
}

async function admit(ctx: Tenants, input: Parameters<TenantOperations['admit']>[0]): ReturnType<TenantOperations['admit']> {
  // The Wi-Fi key first: when the controller write fails (502) no token has been issued.
  const wifi = await ctx.admission.issue(input);
  const token = `enr1.${randomBytes(24).toString('base64url')}`;
  const expiresAt = new Date(Date.now() + ctx.site.enrollmentLifetimeMs);
  // Audited in the transaction that issues it (docs/decisions.md, "One audit place").
  await issueAdmission(ctx.registry.db, {
    tokenHash: tokenHash(token),
    name: input.name,
    mac: input.mac,
    expiresAt,
    actor: input.actor,
    wifi: wifi !== undefined,
  });
  return { name: input.name, enrollment_token: token, expires_at: expiresAt.toISOString(), ...(wifi ? { wifi } : {}) };
}
