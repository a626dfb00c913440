import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { z } from 'zod';
import type { RunFailure } from '../../core/object-life.js';
import type { Refusal } from '../../core/refusal.js';
import { isTenantGone } from '../../db/queries/unique.js';
import { isDatabaseUnreachable } from '../../db/unreachable.js';

/**
 * The one place that maps domain results and errors to HTTP. Handlers throw ApiError (or return
 * domain outcomes mapped here); they never build status codes or error strings for failures.
 */
export const errorStatus = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unprocessable: 422,
  not_configured: 501,
  backend_failed: 502,
  unavailable: 503,
} as const;

export type ErrorKind = keyof typeof errorStatus;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Extra body fields: the partial object of a 502 (`tenant`, `workload`, ...). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (reason: string) => new ApiError('bad_request', reason);
export const unauthorized = () => new ApiError('unauthorized', 'unauthorized');
/** A spent enrollment token presented again to create its tenant: the create that spent it answered the tenant's own token. */
export const SPENT_ENROLLMENT = "unauthorized: this enrollment token was spent; resume with the tenant's own token (api_token in the 502 answer)";
export const spentEnrollment = () => new ApiError('unauthorized', SPENT_ENROLLMENT);
export const operatorOnly = () => new ApiError('forbidden', 'operator only');
export const notFound = (what: string) => new ApiError('not_found', what);
export const tenantNotFound = () => notFound('tenant not found');
export const conflict = (reason: string) => new ApiError('conflict', reason);
export const notConfigured = (reason: string) => new ApiError('not_configured', reason);
export const notMigrated = () => new ApiError('unavailable', 'database not migrated yet');
/** A failed step: the spec's text naming the step, the partial object, and the failure as the run recorded it (`failure`). */
export const stepFailed = (step: string, partial: Record<string, unknown>, failure?: RunFailure) =>
  new ApiError('backend_failed', `backend step "${step}" failed`, { ...partial, ...(failure ? { failure } : {}) });
/** Temporal or the registry failing under a run (not a backend step): 503, repeat the call; the cause is logged. */
export const runUnavailable = (cause: unknown) =>
  Object.assign(new ApiError('unavailable', 'provisioning is unavailable right now; repeat the call'), { cause });

type Settled<R> = Exclude<R, { kind: 'refused' } | { kind: 'failed' }>;
type Failed<R> = Extract<R, { kind: 'failed'; step: string }>;

/**
 * A run's answer to HTTP: a refusal answers its status (404, 409, ...), a failed step a 502 with
 * what the route shows of the partial object (`partial`), anything else is the success, returned.
 */
export function settle<R extends { kind: string }>(result: R, partial: (failed: Failed<R>) => Record<string, unknown> = () => ({})): Settled<R> {
  if (result.kind === 'refused') throw fromRefusal(result as unknown as Refusal);
  if (result.kind === 'failed') {
    const failed = result as Failed<R> & { failure?: RunFailure };
    throw stepFailed(failed.step, partial(failed), failed.failure);
  }
  return result as Settled<R>;
}

/** What a read found, or a 404 saying what was not. */
export function found<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw notFound(what);
  return value;
}

export function errorBody(err: ApiError): Record<string, unknown> {
  return { error: err.message, ...err.extra };
}

export function respondError(c: Context, err: ApiError): Response {
  if (err.kind === 'unauthorized') c.header('WWW-Authenticate', 'Bearer realm="svc-api"');
  return c.json(errorBody(err), errorStatus[err.kind]);
}

/**
 * A readable reason for a failed request validation, naming the field (never echoing values).
 * `input` is what was validated: zod 4 leaves `issue.input` unset, so a field given with the
 * wrong type is told apart from a missing one by looking it up there.
 */
export function validationReason(error: z.ZodError, input?: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request';
  const at = issue.path.length ? issue.path.join('.') : '';
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `"${[...issue.path, k].join('.')}"`).join(', ');
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}`;
  }
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) return `${at || 'body'}: required`;
  return at ? `${at}: ${issue.message}` : issue.message;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Errors that escaped a handler. Known ones map to their status; anything else is a 500 whose
 * text says nothing of the cause (the cause is logged with the request id).
 */
export function toResponse(c: Context, err: unknown): Response {
  if (err instanceof ApiError) {
    if (err.cause !== undefined) c.var.log?.error({ err: err.cause }, err.message);
    return respondError(c, err);
  }
  if (err instanceof HTTPException) {
    if (err.status === 400) return respondError(c, badRequest('malformed JSON in request body'));
    if (err.status === 413) return c.json({ error: 'request body larger than 64 KB' }, 413);
    return c.json({ error: err.message || 'request refused' }, err.status);
  }
  // A tenant's row written just as its delete removed the tenant: the operation came after the
  // delete, so the answer is the delete's order's (docs/decisions.md, "One tenant, one order").
  if (isTenantGone(err)) return respondError(c, tenantNotFound());
  if (isDatabaseUnreachable(err)) {
    c.var.log?.warn({ err }, 'registry unreachable');
    return respondError(c, new ApiError('unavailable', 'database unavailable; repeat the call'));
  }
  c.var.log?.error({ err }, 'unhandled error');
  return c.json({ error: 'internal error' }, 500);
}

/** A run's refusal (a business outcome, not a failure) as an HTTP error: 400, 404 or 409. */
export function fromRefusal(r: Pick<Refusal, 'error' | 'message'>): ApiError {
  return new ApiError(r.error, r.message);
}

/** New tenants answer 201; resumed and reconciled ones 200 (spec: Tenants). */
export function createdStatus(outcome: string | undefined): 200 | 201 {
  return outcome === 'resumed' || outcome === 'reconciled' ? 200 : 201;
}

/** The registry being away is the service being unavailable for a moment, not an internal error (db/unreachable.ts). */
export { isDatabaseUnreachable };
