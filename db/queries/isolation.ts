import { desc, eq } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { canaries, isolationChecks, type CanaryRow } from '../schema/index.js';

export async function getCanary(db: Db, name: string): Promise<CanaryRow | undefined> {
  const [row] = await db.select().from(canaries).where(eq(canaries.name, name));
  return row;
}

/** The canary's sealed secrets, written once its create answered them (or replaced on a new token). */
export async function saveCanary(db: Db, row: { name: string; apiToken: string; brokerPassword: string }): Promise<void> {
  await db
    .insert(canaries)
    .values(row)
    .onConflictDoUpdate({ target: canaries.name, set: { apiToken: row.apiToken, brokerPassword: row.brokerPassword, updatedAt: new Date() } });
}

/** One check's result, kept for the latest read; a repeated write of a run's result keeps the first. */
export async function saveIsolationCheck(db: Db, c: { runId: string; workflowId: string; startedAt: Date; passed: boolean; result: unknown }): Promise<void> {
  await db.insert(isolationChecks).values(c).onConflictDoNothing();
}

export async function latestIsolationCheck(db: Db): Promise<{ passed: boolean; result: unknown } | undefined> {
  const [row] = await db.select().from(isolationChecks).orderBy(desc(isolationChecks.finishedAt)).limit(1);
  return row;
}
