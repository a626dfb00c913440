import { DrizzleQueryError } from 'drizzle-orm';
import { BackendError } from '../core/backend-outcome.js';

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

/**
 * The registry away under work that reaches a backend only through `BackendError` (every adapter
 * wraps its product's faults in one): a query's failure (`DrizzleQueryError`), or the driver's own
 * on a transaction's connection, which reaches the caller unwrapped (`write CONNECTION_CLOSED` at a
 * transaction's BEGIN: the database-cut test had a step reported failed on it).
 */
export function isRegistryUnreachable(err: unknown): boolean {
  if (isDriverConnectionLost(err)) return true;
  for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause) if (e instanceof BackendError) return false;
  return isDatabaseUnreachable(err);
}

/** The codes only postgres.js gives a connection it lost: no backend's client uses them. */
const DRIVER_CONNECTION_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT']);

/**
 * The registry's driver lost its connection under work that may also reach backends (a step): only
 * postgres.js's own codes say so, as a backend's `ECONNRESET` says the same as the registry's.
 */
export function isDriverConnectionLost(err: unknown): boolean {
  if (isRegistryQueryUnreachable(err)) return true;
  for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    if (e instanceof BackendError) return false;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DRIVER_CONNECTION_CODES.has(code)) return true;
  }
  return false;
}
