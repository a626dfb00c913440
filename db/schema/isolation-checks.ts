import { boolean, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What each isolation check found (workflows/isolation-check.ts), for `GET /v1/isolation-checks/latest`:
 * the run that checked, when, whether every probe held, and its probes. No secret: a probe names
 * its backend, the credential's kind and what it reached.
 */
export const isolationChecks = pgTable('isolation_checks', {
  runId: text('run_id').primaryKey(),
  workflowId: text('workflow_id').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  passed: boolean('passed').notNull(),
  result: jsonb('result').notNull(),
});
