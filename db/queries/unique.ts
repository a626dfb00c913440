/**
 * PostgreSQL's error `code` (SQLSTATE) on `err` or on its cause: drizzle wraps the driver's error,
 * and the PostgreSQL fields are on it or on its cause. The error carrying them, or undefined.
 */
export function pgError(err: unknown, code: string): { constraint_name?: unknown; constraint?: unknown } | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === code) return e as { constraint_name?: unknown; constraint?: unknown };
  }
  return undefined;
}

/** Whether `err` is PostgreSQL's unique violation (23505), optionally of one named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const pg = pgError(err, '23505');
  return pg !== undefined && (constraint === undefined || pg.constraint_name === constraint || pg.constraint === constraint);
}

/**
 * Whether `err` is PostgreSQL's foreign-key violation (23503) against the tenants table: a row of
 * a tenant written just as the tenant's delete removed it. The tenant is gone (404), not broken.
 */
export function isTenantGone(err: unknown): boolean {
  const pg = pgError(err, '23503');
  return pg !== undefined && String(pg.constraint_name ?? pg.constraint ?? '').includes('_tenants_name_fk');
}
