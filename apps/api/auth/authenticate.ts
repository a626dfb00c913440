import type { MiddlewareHandler } from 'hono';
import { timingSafeEqual, createHash } from 'node:crypto';
import { looksLikeTenantToken, tokenHash, verifyTenantToken } from '../../../core/credentials/api-token.js';
import type { AppEnv } from '../context.js';
import { respondError, spentEnrollment, unauthorized, type ApiError } from '../errors.js';
import type { Caller } from './caller.js';

export interface TokenLookups {
  /** A registered tenant's stored token hash; undefined when the registry holds no such tenant. */
  tenantToken(tenant: string): Promise<{ hash: string | null } | undefined>;
  /** Whether a tenant token was revoked for good (replaced, or its tenant deleted). */
  tokenRevoked(hash: string): Promise<boolean>;
  /** A live (unspent, unexpired) admission by token hash. */
  liveAdmission(hash: string): Promise<{ name: string } | undefined>;
  /** Whether a token hash is an enrollment token spent by the create of a tenant not ready yet (it failed at a step). */
  spentOnUnfinishedTenant(hash: string): Promise<boolean>;
}

export interface AuthOptions {
  operatorToken: string;
  egressAgentToken?: string;
  /**
   * The decode-only codec token. Given only to the `/codec/*` authenticator: on `/v1` it is not a
   * recognised token at all, so it gets the spec's 401 for an unrecognised one (docs/decisions.md).
   */
  codecToken?: string;
  /** Absent when no site is configured: tenant and enrollment tokens are then unknown. */
  tokenKey?: Buffer;
  lookups: TokenLookups;
}

// The auth scheme is case-insensitive (RFC 7235 §2.1); the token itself is not.
const BEARER = /^Bearer +([\x21-\x7e]{1,512})$/i;

/** The bearer token of an Authorization header, if it carries one in the accepted form. */
export function bearerToken(header: string | undefined): string | undefined {
  return BEARER.exec(header ?? '')?.[1];
}

const digest = (s: string) => createHash('sha256').update(s).digest();

// Hash first so the comparison is constant-time whatever the lengths.
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** A configured token, hashed once: each request then hashes only what it presents. */
function secretMatcher(secret: string | undefined): (presented: Buffer) => boolean {
  if (!secret) return () => false;
  const expected = digest(secret);
  return (presented) => timingSafeEqual(presented, expected);
}

/** Establishes the caller of every /v1 request; a missing, malformed or unknown token is 401. */
export function authenticate(opts: AuthOptions): MiddlewareHandler<AppEnv> {
  const isOperator = secretMatcher(opts.operatorToken);
  const isEgressAgent = secretMatcher(opts.egressAgentToken);
  const isCodecReader = secretMatcher(opts.codecToken);
  const known = (token: string): Caller | undefined => {
    const presented = digest(token);
    if (isOperator(presented)) return { kind: 'operator' };
    if (isEgressAgent(presented)) return { kind: 'egress-agent' };
    if (isCodecReader(presented)) return { kind: 'codec-reader' };
    return undefined;
  };
  return async function bearerAuth(c, next) {
    const token = bearerToken(c.req.header('authorization'));
    const caller = token ? (known(token) ?? (await identify(opts, token))) : undefined;
    if (!caller) return respondError(c, token && c.req.method === 'POST' && c.req.path === '/v1/tenants' ? await createRefusal(opts, token) : unauthorized());
    c.set('caller', caller);
    return next();
  };
}

/** A tenant or enrollment token (the operator's and the egress agent's are matched before). */
async function identify(opts: AuthOptions, token: string): Promise<Caller | undefined> {
  if (!opts.tokenKey) return undefined;
  if (looksLikeTenantToken(token)) {
    const tenant = verifyTenantToken(opts.tokenKey, token);
    if (!tenant) return undefined;
    const stored = await opts.lookups.tenantToken(tenant);
    if (!stored) {
      // Unregistered: a genuine token may restore its tenant after the registry is lost, never
      // one that was replaced or whose tenant was deleted.
      if (await opts.lookups.tokenRevoked(tokenHash(token))) return undefined;
      return { kind: 'tenant', tenant, token, registered: false };
    }
    // A registered tenant holds one token at a time: a replaced one is revoked.
    if (!stored.hash || !sameSecret(stored.hash, tokenHash(token))) return undefined;
    return { kind: 'tenant', tenant, token, registered: true };
  }
  const hash = tokenHash(token);
  const admission = await opts.lookups.liveAdmission(hash);
  return admission ? { kind: 'enrollment', name: admission.name, tokenHash: hash } : undefined;
}

/**
 * The 401 of a create whose token is not recognised. An enrollment token spent by the create that
 * registered its tenant, a create that then failed at a step (the tenant is not ready), is told
 * how to resume: with the tenant's own token from that 502. Any other token is told nothing more,
 * so no token can probe what exists.
 */
async function createRefusal(opts: AuthOptions, token: string): Promise<ApiError> {
  if (!opts.tokenKey || looksLikeTenantToken(token)) return unauthorized();
  return (await opts.lookups.spentOnUnfinishedTenant(tokenHash(token))) ? spentEnrollment() : unauthorized();
}
