import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../registry.js';
import { auditLog, workloads } from '../schema/index.js';
import { namedRows } from './named-rows.js';
import type { WorkloadStatus } from '../../core/views/workload.js';

export type WorkloadRow = typeof workloads.$inferSelect;

const rows = namedRows(workloads, workloads.name, workloads.ordinal);
export const getWorkload = rows.get;
/** A tenant's workloads, by ordinal. */
export const listWorkloads = rows.list;

export async function hasWorkloads(db: Db, tenant: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(workloads)
    .where(eq(workloads.tenant, tenant))
    .limit(1);
  return row !== undefined;
}

export interface WorkloadSizing {
  cores: number;
  memoryMb: number;
  diskGb: number;
}

export interface NewWorkload extends WorkloadSizing {
  tenant: string;
  name: string;
  sshKeys: string[];
  loginUser: string;
  /** The derived identity of an ordinal (design §7). */
  identity(ordinal: number): { vmid: number; mac: string; address: string };
  /** The lowest ordinal not in `used`, or undefined when the tenant has none left. */
  chooseOrdinal(used: number[]): number | undefined;
  actor: string;
}

export type WorkloadRegistration = { kind: 'created' | 'existing'; row: WorkloadRow } | { kind: 'full' };

/**
 * Registers a workload or takes the new sizing of a registered one; its identity never changes.
 * A new one gets the lowest free ordinal; the unique (tenant, ordinal) constraint settles races
 * between creates of different names (the loser looks again). The audit row shares the write's
 * transaction.
 */
export async function registerWorkload(db: Db, w: NewWorkload): Promise<WorkloadRegistration> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const found = await getWorkload(db, w.tenant, w.name);
    if (found) {
      const changed = found.cores !== w.cores || found.memoryMb !== w.memoryMb || found.diskGb !== w.diskGb;
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(workloads)
          .set({ cores: w.cores, memoryMb: w.memoryMb, diskGb: w.diskGb, status: 'provisioning', updatedAt: new Date() })
          .where(and(eq(workloads.tenant, w.tenant), eq(workloads.name, w.name)))
          .returning();
        if (updated && changed) {
          await tx.insert(auditLog).values({
            actor: w.actor,
            action: 'workload.resize',
            tenant: w.tenant,
            object: `workload ${w.name}`,
            detail: { cores: w.cores, memory_mb: w.memoryMb, disk_gb: w.diskGb },
          });
        }
        return updated;
      });
      if (row) return { kind: 'existing', row };
      continue; // deleted in between: register it afresh
    }
    const used = (await db.select({ ordinal: workloads.ordinal }).from(workloads).where(eq(workloads.tenant, w.tenant))).map((r) => r.ordinal);
    const ordinal = w.chooseOrdinal(used);
    if (ordinal === undefined) return { kind: 'full' };
    const id = w.identity(ordinal);
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(workloads)
        .values({
          tenant: w.tenant,
          name: w.name,
          ordinal,
          vmid: id.vmid,
          mac: id.mac,
          address: id.address,
          cores: w.cores,
          memoryMb: w.memoryMb,
          diskGb: w.diskGb,
          sshKeys: w.sshKeys,
          loginUser: w.loginUser,
          status: 'provisioning',
        })
        .onConflictDoNothing()
        .returning();
      if (inserted) {
        await tx.insert(auditLog).values({
          actor: w.actor,
          action: 'workload.create',
          tenant: w.tenant,
          object: `workload ${w.name}`,
          detail: { ordinal, vmid: id.vmid, address: id.address },
        });
      }
      return inserted;
    });
    if (row) return { kind: 'created', row };
  }
  throw new Error('registry contention while choosing a workload ordinal');
}

/** Sets the status of a workload; `from` limits it to rows in that status. Undefined when no row changed. */
export async function setWorkloadStatus(db: Db, tenant: string, name: string, status: WorkloadStatus, from?: WorkloadStatus): Promise<WorkloadRow | undefined> {
  const [row] = await db
    .update(workloads)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(workloads.tenant, tenant), eq(workloads.name, name), from ? eq(workloads.status, from) : undefined))
    .returning();
  return row;
}

/** Forgets a deleted workload (its ordinal is free again), with its audit row. */
export async function deleteWorkload(db: Db, tenant: string, name: string, actor: string): Promise<void> {
  await rows.forget(db, tenant, name, (gone) => ({
    actor,
    action: 'workload.delete',
    tenant,
    object: `workload ${name}`,
    detail: { ordinal: gone.ordinal, vmid: gone.vmid, address: gone.address },
  }));
}
