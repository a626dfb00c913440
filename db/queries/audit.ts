import type { Db } from '../registry.js';
import { auditLog } from '../schema/index.js';

export async function audit(db: Db, entry: { actor: string; action: string; tenant?: string; object: string; detail?: unknown }): Promise<void> {
  await db.insert(auditLog).values({ ...entry, tenant: entry.tenant ?? null, detail: entry.detail ?? null });
}
