import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { PlannedObject } from '../../core/saved-plan.js';

/**
 * Saved reconcile plans (core/saved-plan.ts): what a plan observed of a tenant's backend objects
 * and whether it prunes, applied at most once, by id, until it expires. No secret: a plan carries
 * none. Expired plans are deleted by the next plan saved.
 */
export const reconcilePlans = pgTable(
  'reconcile_plans',
  {
    id: text('id').primaryKey(),
    tenant: text('tenant').notNull(),
    prune: boolean('prune').notNull(),
    /** planDigest of `objects`. */
    digest: text('digest').notNull(),
    objects: jsonb('objects').$type<PlannedObject[]>().notNull(),
    askedBy: text('asked_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    appliedAt: timestamp('applied_at', { withTimezone: true, mode: 'date' }),
    appliedBy: text('applied_by'),
  },
  (t) => [index('reconcile_plans_expires_at').on(t.expiresAt)],
);

export type ReconcilePlanRow = typeof reconcilePlans.$inferSelect;
