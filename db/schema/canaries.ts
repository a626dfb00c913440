import { pgTable, text } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';

/**
 * The isolation check's canaries (core/canaries.ts): the secrets of theirs the tenants' own rows
 * do not keep openable, sealed (db/seal.ts) so the check can present them as a tenant would. A
 * tenant row keeps only its API token's hash, a broker account only its password's hash.
 */
export const canaries = pgTable('canaries', {
  name: text('name').primaryKey(),
  apiToken: text('api_token').notNull(),
  brokerPassword: text('broker_password').notNull(),
  ...stamps(),
});

export type CanaryRow = typeof canaries.$inferSelect;
