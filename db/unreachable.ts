import { DrizzleQueryError } from 'drizzle-orm';

/**
 * Whether an error is the registry being away (a connection lost or refused, the server shutting
 * down or starting, a statement cut by its timeout, the database gone), whatever the query: the
 * API answers it 503, and a run's step waits it out instead of reporting its backend failed.
 */
const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
]);

export function isDatabaseUnreachable(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_FAILURES.has(code)) return true;
    if (typeof code === 'string' && UNAVAILABLE_SQLSTATES.test(code)) return true;
  }
  return false;
}

/**
 * PostgreSQL's answers that mean the registry is not there to serve, whatever the query: a
 * connection exception (class 08), the server shutting down or starting (57P01-57P03), a statement
 * cut by `statement_timeout` (57014: the database is stalled), and the registry's database gone
 * (3D000, dropped or not yet created: an operator's outage, not the service's bug).
 */
const UNAVAILABLE_SQLSTATES = /^(08[0-9A-Z]{3}|57P0[123]|57014|3D000)$/;

/**
 * The registry away under a query the service made (drizzle wraps each failed query in a
 * `DrizzleQueryError`, whose `name` it leaves `Error`), as opposed to a backend's connection
 * failing with the same error codes.
 */
export function isRegistryQueryUnreachable(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    if (e instanceof DrizzleQueryError) return isDatabaseUnreachable(e);
  }
  return false;
}
