import { bigint, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';

/**
 * One row per registered tenant. Secrets are stored sealed (`<key id>:<base64>`, AES-256-GCM) and
 * the API token only as a hash; the index is unique so two replicas can never allocate the same one.
 */
export const tenants = pgTable('tenants', {
  name: text('name').primaryKey(),
  index: integer('index').notNull().unique(),
  status: text('status', { enum: ['provisioning', 'ready', 'deleting'] }).notNull(),
  apiTokenHash: text('api_token_hash'),
  tsigSecret: text('tsig_secret').notNull(),
  stateSecret: text('state_secret').notNull(),
  logIngestToken: text('log_ingest_token'),
  logReadToken: text('log_read_token'),
  dashboardPassword: text('dashboard_password'),
  dashboardOrgId: integer('dashboard_org_id'),
  ...stamps(),
  /**
   * Bumped by the database itself (triggers in migration 0001) on every change to the row or to
   * its steps, whichever code path writes them: an API may answer a read from the view it built
   * for the version it reads now (apps/api/tenant-views.ts).
   */
  version: bigint('version', { mode: 'number' }).notNull().default(1),
});

export type TenantRow = typeof tenants.$inferSelect;
