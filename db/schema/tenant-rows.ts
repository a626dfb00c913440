import { primaryKey, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { tenants } from './tenants.js';

/**
 * The column of a row that belongs to a tenant: its name, a reference that removes the row with
 * the tenant (`cascade`), or refuses the tenant's removal while the row stands (`restrict`).
 */
export const ofTenant = (onDelete: 'cascade' | 'restrict' = 'cascade') => ({
  tenant: text('tenant')
    .notNull()
    .references(() => tenants.name, { onDelete }),
});

/** An object a tenant names: its tenant and its name, which together are its key (`tenantNameKey`). */
export const namedByTenant = (onDelete?: 'cascade' | 'restrict') => ({ ...ofTenant(onDelete), name: text('name').notNull() });

/** The same columns without the reference, for a row that may stand before its tenant does (an admission's Wi-Fi key). */
export const tenantAndName = () => ({ tenant: text('tenant').notNull(), name: text('name').notNull() });

/** The key of a table of objects a tenant names: (tenant, name). */
export const tenantNameKey = (t: { tenant: AnyPgColumn; name: AnyPgColumn }) => primaryKey({ columns: [t.tenant, t.name] });
