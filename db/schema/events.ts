import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What an operator is told of (apps/worker/event-relay.ts): drift a sweep found, runs parked after
 * a failed step, runs that gave up. Each is emitted once (`key`), kept as a feed (`GET /v1/events`,
 * by `seq`) and, at a site with a webhook, delivered signed with retries: `delivered_at` once it
 * answered 2xx, `given_up_at` after the last attempt.
 */
export const events = pgTable(
  'events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    /** The event's id as the webhook's `webhook-id` names it: one per event, the same on every attempt. */
    id: text('id').notNull().unique(),
    /** What makes it the same event when found again (`sweep/<run id>/<tenant>`, `parked/<workflow id>/<run id>/<since>`). */
    key: text('key').notNull().unique(),
    type: text('type').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    givenUpAt: timestamp('given_up_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('events_due').on(t.nextAttemptAt)],
);

/** The sweeps' results, as the relay found each closed sweep run in Temporal (`GET /v1/sweeps`). */
export const sweepResults = pgTable('sweep_results', {
  runId: text('run_id').primaryKey(),
  workflowId: text('workflow_id').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }).notNull(),
  result: jsonb('result').$type<Record<string, unknown>>().notNull(),
});

export type EventRow = typeof events.$inferSelect;
