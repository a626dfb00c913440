import type { Context } from 'hono';
import type { AppEnv } from '../context.js';
import { operatorOnly, tenantNotFound, unauthorized } from '../errors.js';
import type { Caller } from './caller.js';

/**
 * Route-level rules (spec: Authentication). Operator-only routes answer other recognised tokens
 * 403 `operator only`. Tenant routes answer a token of another tenant — or of a tenant the
 * registry no longer holds — 404 `tenant not found`, so existence cannot be probed. A token that
 * is recognised but never valid on a route (enrollment, egress agent) is 401 there.
 */
export function requireOperator(c: Context<AppEnv>): void {
  const kind = c.var.caller.kind;
  if (kind === 'operator') return;
  // Only a tenant token is told the route is the operator's; the others are never valid here.
  throw kind === 'tenant' ? operatorOnly() : unauthorized();
}

/** The codec routes: the operator, or the decode-only codec token; a tenant is told they are the operator's. */
/**
 * The codec's decode: the operator, or the decode-only CODEC_TOKEN. Its encode: the operator; the
 * codec token only with nothing to encode (`payloads` empty), which is what the Temporal CLI sends
 * before a query without arguments (`workflow stack`, `metadata`): it encodes no payload.
 */
export function requireCodecReader(c: Context<AppEnv>, action: 'encode' | 'decode', payloads: number): void {
  if (c.var.caller.kind === 'codec-reader') {
    if (action === 'decode' || payloads === 0) return;
    throw operatorOnly();
  }
  requireOperator(c);
}

export function requireTenantAccess(c: Context<AppEnv>, tenant: string): Caller {
  const caller = c.var.caller;
  switch (caller.kind) {
    case 'operator':
      return caller;
    case 'tenant':
      if (caller.tenant !== tenant || !caller.registered) throw tenantNotFound();
      return caller;
    default:
      throw unauthorized();
  }
}

export function requireEgressReader(c: Context<AppEnv>): void {
  const kind = c.var.caller.kind;
  if (kind !== 'operator' && kind !== 'egress-agent') throw unauthorized();
}
