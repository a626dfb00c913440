import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { revokedTenantTokens, steps, tenants, type TenantRow } from '../schema/index.js';
import { canOpen, open, type SealKeys } from '../seal.js';
import type { TenantRecord, TenantSecrets, TenantStatus } from '../../core/tenant-view.js';

/** to_char's pattern for Date.prototype.toISOString()'s form. */
const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

const SEALED = ['tsigSecret', 'stateSecret', 'logIngestToken', 'logReadToken', 'dashboardPassword'] as const;

function secretsStored(keys: SealKeys, row: Pick<TenantRow, (typeof SEALED)[number]>): boolean {
  return SEALED.every((f) => row[f] === null || canOpen(keys, row[f]));
}

/**
 * The statements on every authenticated or read request, each one fixed text run prepared.
 * postgres.js rebuilds a query whose template nests another (`${sql`...`}`) on every call, and
 * drizzle's builder renders its SQL on every call; measured on the read bench, that rebuilding
 * cost about a quarter of the API's CPU per tenant read (docs/performance.md).
 */
const TENANT_TOKEN_BY_NAME = 'select api_token_hash as hash from tenants where name = $1';
const TENANT_VERSION_BY_NAME = 'select version::text as version from tenants where name = $1';

/**
 * Tenants with their steps, in one round trip: what every GET of a tenant or of the list reads.
 * Timestamps come already in the wire's ISO form: parsing and re-formatting dates was a visible
 * share of a read's CPU.
 */
const SELECT_TENANT_RECORDS = `
  select t.name, t.index, t.status, t.dashboard_org_id, t.version::text as version,
    t.tsig_secret, t.state_secret, t.log_ingest_token, t.log_read_token, t.dashboard_password,
    to_char(t.created_at at time zone 'UTC', ${ISO_UTC}) as created_iso,
    to_char(t.updated_at at time zone 'UTC', ${ISO_UTC}) as updated_iso,
    coalesce(
      (select json_agg(json_build_object('name', s.name, 'ok', s.ok, 'updatedAt', to_char(s.updated_at at time zone 'UTC', ${ISO_UTC}))) from steps s where s.tenant = t.name),
      '[]'::json) as step_rows
  from tenants t`;
const TENANT_RECORD_BY_NAME = `${SELECT_TENANT_RECORDS} where t.name = $1`;
const ALL_TENANT_RECORDS = `${SELECT_TENANT_RECORDS} order by t.index`;

function prepared<T extends object>(db: Db, text: string, params: string[] = []): Promise<T[]> {
  return db.$client.unsafe<T[]>(text, params, { prepare: true });
}

export async function findTenantToken(db: Db, name: string): Promise<{ hash: string | null } | undefined> {
  const [row] = await prepared<{ hash: string | null }>(db, TENANT_TOKEN_BY_NAME, [name]);
  return row;
}

export async function getTenantRow(db: Db, name: string): Promise<TenantRow | undefined> {
  const [row] = await db.select().from(tenants).where(eq(tenants.name, name));
  return row;
}

function toTenantRecord(keys: SealKeys, raw: Record<string, unknown>): TenantRecord {
  const sealed = {
    tsigSecret: raw.tsig_secret as string,
    stateSecret: raw.state_secret as string,
    logIngestToken: raw.log_ingest_token as string | null,
    logReadToken: raw.log_read_token as string | null,
    dashboardPassword: raw.dashboard_password as string | null,
  };
  return {
    name: raw.name as string,
    index: raw.index as number,
    status: raw.status as TenantStatus,
    createdAt: raw.created_iso as string,
    updatedAt: raw.updated_iso as string,
    dashboardOrgId: raw.dashboard_org_id as number | null,
    secretsStored: secretsStored(keys, sealed),
    steps: raw.step_rows as { name: string; ok: boolean; updatedAt: string }[],
  };
}

export async function getTenantRecord(db: Db, keys: SealKeys, name: string): Promise<TenantRecord | undefined> {
  return (await getVersionedTenantRecord(db, keys, name))?.record;
}

/** A tenant with the version (schema: tenants.version) of the registry state it was read from. */
export async function getVersionedTenantRecord(db: Db, keys: SealKeys, name: string): Promise<{ record: TenantRecord; version: string } | undefined> {
  const [raw] = await prepared<Record<string, unknown>>(db, TENANT_RECORD_BY_NAME, [name]);
  return raw ? { record: toTenantRecord(keys, raw), version: raw.version as string } : undefined;
}

/** The current version of a tenant's row and steps; undefined when the registry holds no such tenant. */
export async function tenantVersion(db: Db, name: string): Promise<string | undefined> {
  const [row] = await prepared<{ version: string }>(db, TENANT_VERSION_BY_NAME, [name]);
  return row?.version;
}

/** Every tenant, ordered by index. */
export async function listTenantRecords(db: Db, keys: SealKeys): Promise<TenantRecord[]> {
  return (await prepared<Record<string, unknown>>(db, ALL_TENANT_RECORDS)).map((raw) => toTenantRecord(keys, raw));
}

/** Every tenant with its status, by index: a sweep reconciles the ready ones and reports the others. */
export async function listTenantStatuses(db: Db): Promise<{ name: string; index: number; status: string }[]> {
  return db.select({ name: tenants.name, index: tenants.index, status: tenants.status }).from(tenants).orderBy(asc(tenants.index));
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

export async function setTenantStatus(db: Db, name: string, status: TenantStatus, extra: Partial<TenantRow> = {}): Promise<void> {
  await db
    .update(tenants)
    .set({ ...extra, status, updatedAt: new Date() })
    .where(eq(tenants.name, name));
}

export async function updateTenant(db: Db, name: string, set: Partial<TenantRow>): Promise<void> {
  await db
    .update(tenants)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(tenants.name, name));
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
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(tenants)
    .where(and(eq(tenants.name, name)));
  return row !== undefined;
}

/** The index of a registered tenant (for a run's summary), undefined when the name is not registered. */
export async function tenantIndex(db: Db, name: string): Promise<number | undefined> {
  const rows = await db.select({ index: tenants.index }).from(tenants).where(eq(tenants.name, name)).limit(1);
  return rows[0]?.index;
}

/** A tenant token that must never work again (replaced, or its tenant deleted): only its hash is kept. */
export async function revokeTenantToken(db: Db, tenant: string, hash: string | null): Promise<void> {
  if (!hash) return;
  await db.insert(revokedTenantTokens).values({ tokenHash: hash, tenant }).onConflictDoNothing();
}

export async function isTenantTokenRevoked(db: Db, hash: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(revokedTenantTokens)
    .where(eq(revokedTenantTokens.tokenHash, hash))
    .limit(1);
  return rows.length > 0;
}
