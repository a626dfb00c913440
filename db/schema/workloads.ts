import { integer, jsonb, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { stamps } from './stamps.js';
import { namedByTenant, tenantNameKey } from './tenant-rows.js';

/** A tenant's VM. Identity (ordinal, VMID, MAC, address) derives from the tenant index and the ordinal. */
export const workloads = pgTable(
  'workloads',
  {
    ...namedByTenant('restrict'),
    ordinal: integer('ordinal').notNull(),
    vmid: integer('vmid').notNull().unique(),
    mac: text('mac').notNull(),
    address: text('address').notNull(),
    cores: integer('cores').notNull(),
    memoryMb: integer('memory_mb').notNull(),
    diskGb: integer('disk_gb'),
    sshKeys: jsonb('ssh_keys').$type<string[]>().notNull().default([]),
    loginUser: text('login_user').notNull(),
    status: text('status').notNull(),
    ...stamps(),
  },
  (t) => [tenantNameKey(t), unique('workloads_tenant_ordinal').on(t.tenant, t.ordinal)],
);
