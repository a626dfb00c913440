import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { steps, tenants, type TenantRow } from '../schema/index.js';
import { canOpen, open, type SealKeys } from '../seal.js';
import type { TenantRecord, TenantSecrets, TenantStatus } from '../../activities/tenant/view.js';

/** to_char's pattern for Date.prototype.toISOString()'s form. */
const ISO_UTC = 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"';

const SEALED = ['tsigSecret', 'stateSecret', 'logIngestToken', 'logReadToken', 'dashboardPassword'] as const;

function secretsStored(keys: SealKeys, row: TenantRow): boolean {
  return SEALED.every((f) => row[f] === null || canOpen(keys, row[f]));
}

function toRecord(keys: SealKeys, row: TenantRow, stepRows: (typeof steps.$inferSelect)[]): TenantRecord {
  return {
    name: row.name,
    index: row.index,
    status: row.status as TenantStatus,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    dashboardOrgId: row.dashboardOrgId,
    secretsStored: secretsStored(keys, row),
    steps: stepRows.map((s) => ({ name: s.name, ok: s.ok, updatedAt: s.updatedAt })),
  };
}

export async function findTenantToken(db: Db, name: string): Promise<{ hash: string | null } | undefined> {
  const [row] = await db.select({ hash: tenants.apiTokenHash }).from(tenants).where(eq(tenants.name, name));
  return row;
}

export async function getTenantRow(db: Db, name: string): Promise<TenantRow | undefined> {
  const [row] = await db.select().from(tenants).where(eq(tenants.name, name));
  return row;
}

/**
 * A tenant with its steps in one round trip: the read every GET of a tenant makes. Written for
 * postgres.js directly so the statement is prepared once per connection (the hot path of reads).
 */
export async function getTenantRecord(db: Db, keys: SealKeys, name: string): Promise<TenantRecord | undefined> {
  // Timestamps leave PostgreSQL already in the wire's ISO form: parsing and re-formatting dates
  // was a visible share of a read's CPU.
  const [raw] = await db.$client<Record<string, unknown>[]>`
    select t.*,
      to_char(t.created_at at time zone 'UTC', ${ISO_UTC}) as created_iso,
      to_char(t.updated_at at time zone 'UTC', ${ISO_UTC}) as updated_iso,
      coalesce(
        (select json_agg(json_build_object('name', s.name, 'ok', s.ok, 'updatedAt', to_char(s.updated_at at time zone 'UTC', ${ISO_UTC}))) from steps s where s.tenant = t.name),
        '[]'::json) as "stepRows"
    from tenants t where t.name = ${name}`;
  if (!raw) return undefined;
  const row = {
    name: raw.name,
    index: raw.index,
    status: raw.status,
    apiTokenHash: raw.api_token_hash,
    tsigSecret: raw.tsig_secret,
    stateSecret: raw.state_secret,
    logIngestToken: raw.log_ingest_token,
    logReadToken: raw.log_read_token,
    dashboardPassword: raw.dashboard_password,
    dashboardOrgId: raw.dashboard_org_id,
  } as TenantRow;
  return {
    name: row.name,
    index: row.index,
    status: row.status as TenantStatus,
    createdAt: raw.created_iso as string,
    updatedAt: raw.updated_iso as string,
    dashboardOrgId: row.dashboardOrgId,
    secretsStored: secretsStored(keys, row),
    steps: raw.stepRows as { name: string; ok: boolean; updatedAt: string }[],
  };
}

export async function listTenantRecords(db: Db, keys: SealKeys): Promise<TenantRecord[]> {
  const rows = await db.select().from(tenants).orderBy(asc(tenants.index));
  if (rows.length === 0) return [];
  const stepRows = await db.select().from(steps).where(inArray(steps.tenant, rows.map((r) => r.name)));
  return rows.map((r) => toRecord(keys, r, stepRows.filter((s) => s.tenant === r.name)));
}

export async function listReadyTenants(db: Db): Promise<{ name: string; index: number }[]> {
  return db.select({ name: tenants.name, index: tenants.index }).from(tenants).where(eq(tenants.status, 'ready')).orderBy(asc(tenants.index));
}

/** The stored secrets that still open; an unreadable one is absent. */
export function openSecrets(keys: SealKeys, row: TenantRow): TenantSecrets {
  return {
    tsigSecret: open(keys, row.tsigSecret),
    stateSecret: open(keys, row.stateSecret),
    logIngestToken: open(keys, row.logIngestToken),
    logReadToken: open(keys, row.logReadToken),
    dashboardPassword: open(keys, row.dashboardPassword),
  };
}

export async function takenIndexes(db: Db): Promise<Map<number, string>> {
  const rows = await db.select({ index: tenants.index, name: tenants.name }).from(tenants);
  return new Map(rows.map((r) => [r.index, r.name]));
}

export async function recordStep(db: Db, tenant: string, step: string, ok: boolean): Promise<void> {
  await db
    .insert(steps)
    .values({ tenant, name: step, ok, updatedAt: new Date() })
    .onConflictDoUpdate({ target: [steps.tenant, steps.name], set: { ok, updatedAt: new Date() } });
}

/** Each step's last recorded outcome for a tenant. */
export async function getStepOutcomes(db: Db, tenant: string): Promise<Map<string, boolean>> {
  const rows = await db.select({ name: steps.name, ok: steps.ok }).from(steps).where(eq(steps.tenant, tenant));
  return new Map(rows.map((r) => [r.name, r.ok]));
}

export async function setTenantStatus(db: Db, name: string, status: TenantStatus, extra: Partial<TenantRow> = {}): Promise<void> {
  await db.update(tenants).set({ ...extra, status, updatedAt: new Date() }).where(eq(tenants.name, name));
}

export async function updateTenant(db: Db, name: string, set: Partial<TenantRow>): Promise<void> {
  await db.update(tenants).set({ ...set, updatedAt: new Date() }).where(eq(tenants.name, name));
}

export async function deleteTenantRow(db: Db, name: string): Promise<void> {
  await db.delete(tenants).where(eq(tenants.name, name));
}

/** Inserts a new tenant; undefined when the name or the index was taken by a concurrent insert. */
export async function insertTenant(db: Db, row: typeof tenants.$inferInsert): Promise<TenantRow | undefined> {
  const [inserted] = await db.insert(tenants).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function tenantExists(db: Db, name: string): Promise<boolean> {
  const [row] = await db.select({ one: sql<number>`1` }).from(tenants).where(and(eq(tenants.name, name)));
  return row !== undefined;
}
