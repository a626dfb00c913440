import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { tokenHash, verifyTenantToken } from '../../../core/credentials/api-token.js';
import { viewTenant, withSecrets, type TenantSecrets, type TenantView } from '../../../core/tenant-view.js';
import type { Sealed } from '../../../core/sealed.js';
import { openValue, sealValue } from '../../../db/seal.js';
import { issueAdmission, spendAdmission } from '../../../db/queries/admissions.js';
import { isTenantTokenRevoked, listTenantRecords, tenantExists, tenantIndex } from '../../../db/queries/tenants.js';
import type { Registry } from '../../../db/registry.js';
import { tenantCreate, tenantDelete, tenantPlan, tenantReconcile } from '../../../workflows/index.js';
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
import { runUnavailable } from '../errors.js';
import { tenantViews } from '../tenant-views.js';
import { runIds } from '../../../contracts/ids.js';

/** A create as the route asks it: the restore secrets in clear (they are sealed on the way to Temporal). */
export type CreateCall = Omit<CreateRequest, 'restore'> & { restore?: RestoreSecrets };

/** What the tenant routes ask of the service: runs on Temporal, reads from the registry. */
export interface TenantOperations {
  /** Results carry their secrets in the tenant view, ready to answer. */
  create(req: CreateCall): Promise<CreateResult>;
  delete(name: string): Promise<DeleteResult>;
  reconcile(name: string, opts?: { prune?: boolean }): Promise<ReconcileResult>;
  /** What a reconcile would do, nothing changed; the tenant without secrets. */
  plan(name: string): Promise<PlanResult>;
  get(name: string): Promise<TenantView | undefined>;
  list(): Promise<TenantView[]>;
  isRegistered(name: string): Promise<boolean>;
  /** At a site with a tenant developer network the answer carries the admission's new Wi-Fi key. */
  admit(input: {
    name: string;
    mac?: string;
  }): Promise<{ name: string; enrollment_token: string; expires_at: string; wifi?: { ssid: string; psk: string; mac?: string } }>;
  withdrawAdmission(name: string): Promise<boolean>;
  spendEnrollment(tokenHash: string): Promise<boolean>;
  /** The tenant a genuine tenant token names (MAC verified, registry not consulted). */
  tokenTenant(token: string): string | undefined;
  /** Whether a tenant token was revoked for good (replaced, or its tenant deleted). */
  tokenRevoked(token: string): Promise<boolean>;
}

/** What the tenant operations share, built once: the seal keys, the runner and the creates whose answer was lost. */
interface Tenants {
  config: Config & { site: Site };
  site: Site;
  registry: Registry;
  keys: ReturnType<typeof sealKeys>;
  admission: ReturnType<typeof admissionKeys>;
  run: ReturnType<typeof runs>;
  undelivered: ReturnType<typeof undeliveredCreates>;
}

/** Tenant operations on Temporal (create, delete, reconcile) and the registry (reads). */
export function tenantOperations(config: Config & { site: Site }, registry: Registry, client: Client): TenantOperations {
  const { site } = config;
  const keys = sealKeys(site);
  const taskQueue = config.env.TEMPORAL_TASK_QUEUE;
  const admission = admissionKeys({ site, registry, client, taskQueue, parkedTimeoutMs: config.parkedRunTimeoutMs });
  const run = runs(client, taskQueue, config.parkedRunTimeoutMs);
  const undelivered = undeliveredCreates(client, site.idempotencyWindowMs);
  const ctx: Tenants = { config, site, registry, keys, admission, run, undelivered };

  return {
    create: (call: CreateCall): Promise<CreateResult> => create(ctx, call),
    delete: (name: string): Promise<DeleteResult> => deleteTenant(ctx, name),
    reconcile: (name: string, opts: { prune?: boolean } = {}): Promise<ReconcileResult> => reconcile(ctx, name, opts),
    plan: async (name: string): Promise<PlanResult> =>
      run.execute(tenantPlan, { workflowId: runIds.tenantPlan(name), args: [{ name }], ...(await labels(ctx, 'plan the reconcile of', name)) }),
    get: tenantViews(site, registry.db, keys),
    list: async () => (await listTenantRecords(registry.db, keys)).map((r) => viewTenant(site, r)),
    isRegistered: (name) => tenantExists(registry.db, name),
    admit: (input) => admit(ctx, input),
    withdrawAdmission: (name) => admission.withdraw(name),
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
  const { undelivered } = ctx;
  const { restore, ...rest } = call;
  const req = { ...rest, ...(restore ? { restore: sealValue(ctx.keys, restore) } : {}) };
  const labelled = await labels(ctx, 'create', req.name);
  const input = { name: req.name, parkedTimeoutMs: ctx.config.parkedRunTimeoutMs };
  const workflowId = runIds.tenantCreate(req.name);
  const lost = restore ? undefined : await undelivered.collect(req.name);
  if (lost?.answer) return reveal(ctx, lost.answer);
  let result: CreateResult;
  try {
    result = await ctx.run.attempt(tenantCreate, attemptTenantCreate, { workflowId, args: [input], ...labelled }, req);
  } catch (err) {
    // Temporal went away with the attempt delivered or not: its run may finish without us.
    undelivered.note(req.name);
    throw err;
  }
  if (result.kind === 'refused' && lost?.runId) {
    // The run that carried the lost answer completed just before this call reached it: its answer.
    const answer = await undelivered.collect(req.name, lost.runId);
    if (answer?.answer) return reveal(ctx, answer.answer);
  }
  undelivered.forget(req.name);
  return result.kind === 'refused' ? result : reveal(ctx, result);
}

async function deleteTenant(ctx: Tenants, name: string): Promise<DeleteResult> {
  const result = await ctx.run.call(
    tenantDelete,
    attemptTenantDelete,
    { workflowId: runIds.tenantDelete(name), ...(await labels(ctx, 'delete', name)) },
    { name },
  );
  return ctx.run.superseded(result, 'deleted', [runIds.tenantCreate(name)]);
}

async function reconcile(ctx: Tenants, name: string, opts: { prune?: boolean }): Promise<ReconcileResult> {
  const input = { name, ...(opts.prune ? { prune: true } : {}) };
  const result = await ctx.run.execute(tenantReconcile, { workflowId: runIds.tenantReconcile(name), args: [input], ...(await labels(ctx, 'reconcile', name)) });
  return result.kind === 'refused' ? result : reveal(ctx, result);
}

async function admit(ctx: Tenants, input: Parameters<TenantOperations['admit']>[0]): ReturnType<TenantOperations['admit']> {
  // The Wi-Fi key first: when the controller write fails (502) no token has been issued.
  const wifi = await ctx.admission.issue(input);
  const token = `enr1.${randomBytes(24).toString('base64url')}`;
  const expiresAt = new Date(Date.now() + ctx.site.enrollmentLifetimeMs);
  await issueAdmission(ctx.registry.db, { tokenHash: tokenHash(token), name: input.name, mac: input.mac, expiresAt });
  return { name: input.name, enrollment_token: token, expires_at: expiresAt.toISOString(), ...(wifi ? { wifi } : {}) };
}

/**
 * Creates whose answer never reached the caller: the call answered 503 because Temporal went away
 * (killed, restarted) while the run went on, and the run may have finished once Temporal was back,
 * issuing the tenant's secrets. The repeat of such a create (the same call, resumed) gets the
 * finished run's answer with its secrets, as its first call would have, instead of the 409 of a
 * tenant already ready: secrets are shown once, and that once had not happened. Only the first
 * repeat after the lost answer collects it; any later create of the ready tenant is a 409 again.
 * Held by this API instance for the site's idempotency window (an instance restarted meanwhile
 * has forgotten it: the tenant then resumes with new secrets through a restore or reconcile).
 */
function undeliveredCreates(client: Client, windowMs: number) {
  const lost = new Map<string, number>();
  return {
    note(name: string) {
      lost.set(name, Date.now() + windowMs);
    },
    forget(name: string) {
      lost.delete(name);
    },
    /**
     * The finished run's answer to a create whose answer was lost, once. Otherwise the run still
     * open (`runId`), which the repeat joins by update as usual, or nothing.
     */
    async collect(name: string, runId?: string): Promise<{ answer?: Extract<CreateResult, { kind: 'ready' }>; runId?: string } | undefined> {
      const until = lost.get(name);
      if (until === undefined) return undefined;
      if (until < Date.now()) {
        lost.delete(name);
        return undefined;
      }
      const handle = client.workflow.getHandle<typeof tenantCreate>(runIds.tenantCreate(name), runId);
      let result: CreateResult | undefined;
      try {
        const { status, runId: current } = await handle.describe();
        if (status.name === 'RUNNING') return { runId: current };
        if (status.name !== 'COMPLETED') return undefined;
        result = await handle.result();
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return undefined;
        throw runUnavailable(err);
      }
      if (result?.kind !== 'ready') return undefined;
      // Taken before it is answered: two repeats at once never both get the secrets.
      if (!lost.delete(name)) return undefined;
      return { answer: result };
    },
  };
}
