/** Whether `err` is PostgreSQL's unique violation (23505), optionally of one named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  // drizzle wraps the driver's error; the PostgreSQL fields are on it or on its cause.
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const pg = e as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
    if (pg.code === '23505') return constraint === undefined || pg.constraint_name === constraint || pg.constraint === constraint;
  }
  return false;
}
