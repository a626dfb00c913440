import type { MiddlewareHandler } from 'hono';
import { timingSafeEqual, createHash } from 'node:crypto';
import { looksLikeTenantToken, tokenHash, verifyTenantToken } from '../../../activities/tenant/api-token.js';
import type { AppEnv } from '../context.js';
import { respondError, unauthorized } from '../errors.js';
import type { Caller } from './caller.js';

export interface TokenLookups {
  /** A registered tenant's stored token hash; undefined when the registry holds no such tenant. */
  tenantToken(tenant: string): Promise<{ hash: string | null } | undefined>;
  /** A live (unspent, unexpired) admission by token hash. */
  liveAdmission(hash: string): Promise<{ name: string } | undefined>;
}

export interface AuthOptions {
  operatorToken: string;
  egressAgentToken?: string;
  /** Absent when no site is configured: tenant and enrollment tokens are then unknown. */
  tokenKey?: Buffer;
  lookups: TokenLookups;
}

// The auth scheme is case-insensitive (RFC 7235 §2.1); the token itself is not.
const BEARER = /^Bearer +([\x21-\x7e]{1,512})$/i;

function sameSecret(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time whatever the lengths.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** Establishes the caller of every /v1 request; a missing, malformed or unknown token is 401. */
export function authenticate(opts: AuthOptions): MiddlewareHandler<AppEnv> {
  return async function bearerAuth(c, next) {
    const m = BEARER.exec(c.req.header('authorization') ?? '');
    const caller = m ? await identify(opts, m[1]!) : undefined;
    if (!caller) return respondError(c, unauthorized());
    c.set('caller', caller);
    return next();
  };
}

async function identify(opts: AuthOptions, token: string): Promise<Caller | undefined> {
  if (sameSecret(token, opts.operatorToken)) return { kind: 'operator' };
  if (opts.egressAgentToken && sameSecret(token, opts.egressAgentToken)) return { kind: 'egress-agent' };
  if (!opts.tokenKey) return undefined;
  if (looksLikeTenantToken(token)) {
    const tenant = verifyTenantToken(opts.tokenKey, token);
    if (!tenant) return undefined;
    const stored = await opts.lookups.tenantToken(tenant);
    if (!stored) return { kind: 'tenant', tenant, token, registered: false };
    // A registered tenant holds one token at a time: a replaced one is revoked.
    if (!stored.hash || !sameSecret(stored.hash, tokenHash(token))) return undefined;
    return { kind: 'tenant', tenant, token, registered: true };
  }
  const hash = tokenHash(token);
  const admission = await opts.lookups.liveAdmission(hash);
  return admission ? { kind: 'enrollment', name: admission.name, tokenHash: hash } : undefined;
}
