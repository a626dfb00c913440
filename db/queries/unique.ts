/** Whether `err` is PostgreSQL's unique violation (23505), optionally of one named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  // drizzle wraps the driver's error; the PostgreSQL fields are on it or on its cause.
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const pg = e as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
    if (pg.code === '23505') return constraint === undefined || pg.constraint_name === constraint || pg.constraint === constraint;
  }
  return false;
}

/**
 * Whether `err` is PostgreSQL's foreign-key violation (23503) against the tenants table: a row of
 * a tenant written just as the tenant's delete removed it. The tenant is gone (404), not broken.
 */
export function isTenantGone(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const pg = e as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
    if (pg.code === '23503') return String(pg.constraint_name ?? pg.constraint ?? '').includes('_tenants_name_fk');
  }
  return false;
}
