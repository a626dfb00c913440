import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { tokenHash, verifyTenantToken } from '../../activities/tenant/api-token.js';
import { viewTenant } from '../../activities/tenant/view.js';
import { issueAdmission, spendAdmission } from '../../db/queries/admissions.js';
import { listTenantRecords, tenantExists } from '../../db/queries/tenants.js';
import type { Registry } from '../../db/registry.js';
import { startOptions } from '../../temporal/start-options.js';
import { attemptCreate, workflowIds, type CreateRequest, type CreateResult, type DeleteResult, type ReconcileResult } from '../../workflows/shared.js';
import type { Config } from '../config/env.js';
import { sealKeys } from '../config/keys.js';
import type { Site } from '../config/site.js';
import { ApiError } from './errors.js';
import type { TenantOperations } from './operations.js';
import { admissionKeys } from './device-operations.js';
import { tenantViews } from './tenant-views.js';

/**
 * Temporal or the registry failing under a run (not a backend step) is the service being
 * unavailable for a moment: 503, and the same call can be repeated. The cause is logged.
 */
function unavailable(cause: unknown): ApiError {
  const err = new ApiError('unavailable', 'provisioning is unavailable right now; repeat the call');
  (err as { cause?: unknown }).cause = cause;
  return err;
}

/** Tenant operations on Temporal (create, delete, reconcile) and the registry (reads). */
export function temporalOperations(config: Config & { site: Site }, registry: Registry, client: Client): TenantOperations {
  const { site } = config;
  const keys = sealKeys(site);
  const taskQueue = config.env.TEMPORAL_TASK_QUEUE;
  const admission = admissionKeys({ site, registry, client, taskQueue });
  const start = (operation: string, name: string) => startOptions(taskQueue, operation, name);

  return {
    async create(req: CreateRequest): Promise<CreateResult> {
      // A run that is just completing refuses new updates; the next call starts a fresh run.
      for (let attempt = 1; ; attempt++) {
        const startWorkflowOperation = new WithStartWorkflowOperation('tenantCreate', {
          workflowId: workflowIds.create(req.name),
          args: [{ name: req.name, parkedTimeoutMs: config.parkedRunTimeoutMs }],
          ...start('create', req.name),
        });
        try {
          return (await client.workflow.executeUpdateWithStart(attemptCreate, { args: [req], startWorkflowOperation })) as CreateResult;
        } catch (err) {
          if (attempt < 3 && /completed|not found|closed/i.test(String((err as Error).message))) continue;
          throw unavailable(err);
        }
      }
    },
    async delete(name: string): Promise<DeleteResult> {
      return client.workflow
        .execute('tenantDelete', { workflowId: workflowIds.delete(name), args: [{ name }], ...start('delete', name) })
        .catch((err: unknown) => Promise.reject(unavailable(err)));
    },
    async reconcile(name: string): Promise<ReconcileResult> {
      return client.workflow
        .execute('tenantReconcile', { workflowId: workflowIds.reconcile(name), args: [{ name }], ...start('reconcile', name) })
        .catch((err: unknown) => Promise.reject(unavailable(err)));
    },
    get: tenantViews(site, registry.db, keys),
    async list() {
      return (await listTenantRecords(registry.db, keys)).map((r) => viewTenant(site, r));
    },
    isRegistered: (name) => tenantExists(registry.db, name),
    async admit(input) {
      // The Wi-Fi key first: when the controller write fails (502) no token has been issued.
      const wifi = await admission.issue(input);
      const token = `enr1.${randomBytes(24).toString('base64url')}`;
      const expiresAt = new Date(Date.now() + site.enrollmentLifetimeMs);
      await issueAdmission(registry.db, { tokenHash: tokenHash(token), name: input.name, mac: input.mac, expiresAt });
      return { name: input.name, enrollment_token: token, expires_at: expiresAt.toISOString(), ...(wifi ? { wifi } : {}) };
    },
    withdrawAdmission: (name) => admission.withdraw(name),
    spendEnrollment: (hash) => spendAdmission(registry.db, hash),
    tokenTenant: (token) => verifyTenantToken(site.tokenKey, token),
  };
}
