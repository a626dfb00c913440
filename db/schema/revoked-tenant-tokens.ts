import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Tenant tokens that must never work again: replaced by a resume or a restore, or held by a tenant
 * when it was deleted. A genuine token of an unregistered tenant may restore it after the registry
 * is lost (spec: Authentication, rule 4); one listed here may not. Only hashes are kept.
 */
export const revokedTenantTokens = pgTable('revoked_tenant_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  tenant: text('tenant').notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
