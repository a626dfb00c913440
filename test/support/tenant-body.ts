import { expect } from 'vitest';

/** Field names that carry a secret somewhere in a tenant answer (spec: Tenant). */
const SECRET_FIELDS = ['tsig_secret', 'secret_key', 'api_token', 'ingest_token', 'read_token', 'password'];

/** Every secret field name found anywhere in a JSON value, as dotted paths. */
export function secretPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => secretPaths(v, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(SECRET_FIELDS.includes(k) ? [`${at}${k}`] : []), ...secretPaths(v, `${at}${k}.`)]);
}

/** A read never returns a secret (spec rule 4). */
export function expectNoSecrets(body: unknown): void {
  expect(secretPaths(body)).toEqual([]);
}

/** The 401 every unrecognised token gets (spec: Authentication). */
export function expectUnauthorized(r: { status: number; body: unknown; headers: Headers; text: string }): void {
  expect(r.status, r.text).toBe(401);
  expect(r.body).toEqual({ error: 'unauthorized' });
  expect(r.headers.get('www-authenticate')).toBe('Bearer realm="svc-api"');
}
