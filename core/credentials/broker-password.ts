/**
 * Broker account passwords. The service mints one (first issue) and keeps only a salted scrypt
 * hash: `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>`. The plaintext leaves in the create
 * answer (or the 502 body) and nowhere else; the broker holds its own (PBKDF2) hash.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

/** 32 URL-safe characters (192 bits): fits any MQTT client's configuration file. */
export function mintBrokerPassword(): string {
  return randomBytes(24).toString('base64url');
}

export function hashBrokerPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, KEY_LENGTH, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export function verifyBrokerPassword(password: string, stored: string): boolean {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const want = Buffer.from(hash, 'base64url');
  const got = scryptSync(password, Buffer.from(salt, 'base64url'), want.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(got, want);
}
