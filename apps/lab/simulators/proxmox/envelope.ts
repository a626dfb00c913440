import type { Context } from 'hono';
import type { ServerResponse } from 'node:http';

/**
 * How pve-http-server answers: every JSON body carries `data` (null on failure); a failure also
 * carries `message` (the die text, newline included) and, for a parameter exception, `errors`
 * keyed by parameter. The status line's reason phrase is the first line of the message, which
 * is where clients that read only the status line (older PVE omitted `message`) find it.
 */
export class PveError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
  }
}

/** `raise_param_exc`: a 400 with per-parameter reasons. */
export function paramError(errors: Record<string, string>): PveError {
  return new PveError(400, 'Parameter verification failed.', errors);
}

/** A plain `die` inside an API handler: a 500 whose reason is the message. */
export function died(message: string): PveError {
  return new PveError(500, message);
}

/** An error raised inside `lock_sdn_config`, which prefixes its own context to whatever died. */
export function sdnLockError(context: string, e: unknown): PveError {
  if (e instanceof PveError) {
    const detail = e.errors
      ? Object.entries(e.errors)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ')
      : e.message;
    return died(`${context}: ${detail}`);
  }
  return died(`${context}: ${(e as Error).message}`);
}

// Node refuses control characters in a reason phrase; PVE keeps only the first line anyway.
function reasonPhrase(message: string): string {
  const first = message.split('\n')[0] ?? '';
  return first.replace(/[^\x20-\x7e]/g, '?').slice(0, 400) || 'Error';
}

function reply(c: Context, status: number, body: string | null, reason?: string): Response {
  const statusText = reason === undefined ? undefined : reasonPhrase(reason);
  // @hono/node-server drops Response.statusText; Node keeps a statusMessage set before writeHead.
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && statusText) outgoing.statusMessage = statusText;
  const headers = body === null ? undefined : { 'content-type': 'application/json;charset=UTF-8' };
  return new Response(body, { status, statusText, headers });
}

export function ok(c: Context, data: unknown): Response {
  return reply(c, 200, JSON.stringify({ data: data ?? null }));
}

/**
 * `legacy`: the body of an older PVE, `{"data": null}` (plus `errors`) without `message`; the
 * text is then in the reason phrase only.
 */
export function failure(c: Context, e: PveError, legacy = false): Response {
  const message = e.message.endsWith('\n') ? e.message : `${e.message}\n`;
  const body: Record<string, unknown> = legacy ? { data: null } : { data: null, message };
  if (e.errors) body.errors = e.errors;
  return reply(c, e.status, JSON.stringify(body), e.message);
}

/** Authentication refusals carry no body: the reason phrase is the whole answer. */
export function unauthorized(c: Context, reason: string): Response {
  return reply(c, 401, null, reason);
}
