import { z } from '@hono/zod-openapi';
import { DateTime, queryWholeNumber, RunFailure, TenantName } from './common.js';

/** Every run's operation (core/search-attributes.ts `operationOf` of each workflow). */
export const OPERATIONS = [
  'tenant-create',
  'tenant-delete',
  'tenant-reconcile',
  'tenant-plan',
  'reconcile-sweep',
  'broker-account-ensure',
  'broker-account-delete',
  'workload-create',
  'workload-delete',
  'record-put',
  'record-delete',
  'device-address-reserve',
  'device-address-release',
  'device-mac-move',
  'wifi-key-issue',
  'wifi-key-revoke',
  'admission-wifi-key',
  'isolation-check',
] as const;

export const RUN_STATUSES = ['running', 'parked', 'completed', 'failed', 'terminated', 'timed-out', 'canceled', 'continued-as-new'] as const;

export const RunSummary = z
  .object({
    id: z.string().openapi({ description: 'the run (its Temporal workflow id, as the `Run-Id` header names it)', example: 'tenant-create/acme' }),
    run_id: z.string().openapi({ description: 'the Temporal run id of this execution (a workflow id is reused: create, delete, create again)' }),
    operation: z.enum(OPERATIONS),
    tenant: TenantName.optional().openapi({ description: 'absent for the sweep' }),
    object: z.string().optional().openapi({ description: 'the object the run works on, as its path below `/v1/` (`tenants/acme/workloads/web`)' }),
    status: z.enum(RUN_STATUSES).openapi({
      description:
        "`parked`: running, after a failed step, waiting for its call to be repeated (which resumes it); the others are Temporal's execution statuses",
    }),
    outcome: z.string().optional().openapi({ description: 'how the run last answered: `created`, `deleted`, `refused` (a 409 or 404), `failed` (a 502), ...' }),
    step: z.string().optional().openapi({ description: 'the step the run is at, parked after, or `done`' }),
    failed_steps: z.array(z.string()).openapi({ description: 'every step that failed in the run, kept after a resume' }),
    failure: RunFailure.optional().openapi({ description: "the failed step of a parked or given-up run and the backend's answer, as the registry keeps it" }),
    started_at: DateTime,
    closed_at: DateTime.optional(),
  })
  .openapi('RunSummary');

export const RunList = z
  .object({
    runs: z.array(RunSummary).openapi({ description: 'newest first' }),
    next_page: z.string().optional().openapi({ description: 'pass as `page` for the next runs; absent on the last page' }),
  })
  .openapi('RunList');

export const RunListQuery = z.object({
  operation: z.enum(OPERATIONS).optional().openapi({ description: 'only runs of this operation' }),
  status: z.enum(RUN_STATUSES).optional().openapi({ description: 'only runs in this status' }),
  limit: queryWholeNumber(1, 100).optional().openapi({ description: 'runs per page, 1 to 100 (default 20)' }),
  page: z
    .string()
    .max(2048)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a next_page value')
    .optional()
    .openapi({ description: "a previous answer's `next_page`" }),
});

export const AllRunsQuery = RunListQuery.extend({ tenant: TenantName.optional().openapi({ description: "only this tenant's runs" }) });
