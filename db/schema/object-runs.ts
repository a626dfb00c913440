import { index, pgTable, primaryKey, text, timestamp, jsonb } from 'drizzle-orm/pg-core';
import type { RunFailure } from '../../core/object-life.js';

/**
 * The runs of each object (a tenant, a workload, a record, a device's address, a Wi-Fi key, a
 * broker account), one row per run id (workflow id): what every mechanism reads of an object's
 * life besides its own row (core/object-life.ts). Written by the run itself, from its workflow
 * (activities/object-runs.ts): `in-flight` when an attempt begins, `parked` after a failed one,
 * `done` after a success, `given-up` when a parked run ends unrepeated, `superseded` when the
 * object was deleted under a parked run. A reconcile and a prune leave an object alone while one
 * of its runs is `in-flight` or `parked`; reads carry the condition of its newest run.
 *
 * `answer` is the newest success of the run (a create's answer with its secrets), sealed with the
 * site's secrets key, kept for the site's idempotency window: an answer no API instance handed to
 * a caller (`delivered_at` null: the API answered 503, lost its connection, or was killed) is
 * collected once by the repeat of the call at any instance (apps/api/operations/lost-answers.ts).
 */
export const objectRuns = pgTable(
  'object_runs',
  {
    /** The object as kept answers name it: its path below `/v1/` (`tenants/acme/workloads/web`). */
    object: text('object').notNull(),
    tenant: text('tenant').notNull(),
    workflowId: text('workflow_id').notNull(),
    runId: text('run_id').notNull(),
    /** The run's `Operation` (`tenant-create`, `workload-delete`, ...). */
    operation: text('operation').notNull(),
    state: text('state', { enum: ['in-flight', 'parked', 'done', 'failed', 'given-up', 'superseded'] }).notNull(),
    /** The failed step of a parked or given-up run, with the backend's answer (no host, no secret). */
    failure: jsonb('failure').$type<RunFailure>(),
    /** Since when the run is in this state. */
    since: timestamp('since', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** A claim (in-flight, parked) whose run was ended by hand frees itself after this. */
    claimExpiresAt: timestamp('claim_expires_at', { withTimezone: true, mode: 'date' }),
    answerId: text('answer_id'),
    /** Which call the kept answer answers (core/call-digest.ts): only a repeat of that call collects it. */
    requestHash: text('request_hash'),
    answer: text('answer'),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
    /**
     * An API instance is writing the answer out to a caller (set before the write, `delivered_at`
     * after it): a repeat that finds it recent waits for the delivery instead of collecting the
     * answer again, so secrets go out once; one older than ANSWER_HANDING_BOUND_MS was cut off (the
     * instance died mid-write) and the repeat collects it.
     */
    handingAt: timestamp('handing_at', { withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.object, t.workflowId] }), index('object_runs_tenant').on(t.tenant), index('object_runs_answered_at').on(t.answeredAt)],
);

export type ObjectRunRow = typeof objectRuns.$inferSelect;
