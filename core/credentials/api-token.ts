import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Why a restore with a revoked token is refused (400), by the route and, under the tenant's lease, by the run. */
export const REVOKED_TOKEN_REFUSAL = 'api_token was revoked (replaced, or its tenant deleted); it cannot restore the tenant';

/**
 * The tenant token: `dvt1.<tenant>.<nonce>.<mac>` with mac = HMAC-SHA256(`dvt1.<tenant>.<nonce>`)
 * under the site's token key (design §6). A valid MAC identifies the tenant without the registry,
 * which is what lets a tenant restore itself after the registry is lost.
 */
const TOKEN = /^dvt1\.([a-z][a-z0-9]{0,7})\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{43})$/;

function macOf(key: Buffer, tenant: string, nonce: string): string {
  return createHmac('sha256', key).update(`dvt1.${tenant}.${nonce}`).digest('base64url');
}

export function mintTenantToken(key: Buffer, tenant: string): string {
  const nonce = randomBytes(18).toString('base64url');
  return `dvt1.${tenant}.${nonce}.${macOf(key, tenant, nonce)}`;
}

/** The tenant a token names when its MAC is genuine; undefined otherwise. */
export function verifyTenantToken(key: Buffer, token: string): string | undefined {
  const m = TOKEN.exec(token);
  if (!m) return undefined;
  const [, tenant, nonce, mac] = m as unknown as [string, string, string, string];
  const expected = Buffer.from(macOf(key, tenant, nonce));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given) ? tenant : undefined;
}

export function looksLikeTenantToken(token: string): boolean {
  return token.startsWith('dvt1.');
}

/** Tokens are stored only as this hash. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
