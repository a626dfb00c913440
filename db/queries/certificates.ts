import { sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { namedRows } from './named-rows.js';
import { certificates } from '../schema/index.js';

export type CertificateRow = typeof certificates.$inferSelect;
export type CertificateWrite = Omit<typeof certificates.$inferInsert, 'createdAt'>;

const rows = namedRows(certificates, certificates.name);
const key = rows.key;
export const getCertificate = rows.get;
export const listCertificates = rows.list;

/** True when a certificate was forgotten. */
export async function deleteCertificate(db: Db, tenant: string, name: string): Promise<boolean> {
  const rows = await db.delete(certificates).where(key(tenant, name)).returning({ name: certificates.name });
  return rows.length > 0;
}

/**
 * Keeps or replaces the current certificate of a name, one caller at a time per name (a
 * transaction-scoped advisory lock), so two replicas answering the same PUT agree on one
 * certificate. `decide` sees the current row and returns it to keep it, or a new one to store.
 */
export async function replaceCertificate(
  db: Db,
  tenant: string,
  name: string,
  decide: (current: CertificateRow | undefined) => Promise<{ keep: CertificateRow } | { store: CertificateWrite }>,
): Promise<{ row: CertificateRow; stored: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`certificate/${tenant}/${name}`}))`);
    const [current] = await tx.select().from(certificates).where(key(tenant, name));
    const choice = await decide(current);
    if ('keep' in choice) return { row: choice.keep, stored: false };
    const values = { ...choice.store, createdAt: new Date() };
    const [row] = await tx
      .insert(certificates)
      .values(values)
      .onConflictDoUpdate({ target: [certificates.tenant, certificates.name], set: values })
      .returning();
    return { row: row!, stored: true };
  });
}
