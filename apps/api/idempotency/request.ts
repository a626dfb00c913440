import { createHash, createHmac } from 'node:crypto';
import { canonical } from '../../../core/call-digest.js';

/**
 * The pure parts of `Idempotency-Key` handling (IETF draft "The Idempotency-Key HTTP Header
 * Field"): reading the key, hashing the request it came with, naming the caller, and which
 * answers are kept.
 */

/** Visible ASCII, 1..255 characters; the draft's quoted form (an sf-string) is accepted too. */
const KEY = /^[\x21-\x7e]{1,255}$/;

export type KeyReading = { kind: 'absent' } | { kind: 'key'; key: string } | { kind: 'invalid'; reason: string };

export function readIdempotencyKey(header: string | undefined): KeyReading {
  if (header === undefined) return { kind: 'absent' };
  const raw = header.trim();
  const key = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!KEY.test(key)) return { kind: 'invalid', reason: 'Idempotency-Key: must be 1 to 255 visible ASCII characters' };
  return { kind: 'key', key };
}

/** What a repeat must match: method, path and body (as JSON when it parses, as bytes otherwise). */
export function requestHash(method: string, path: string, body: string): string {
  let normal = body;
  try {
    normal = JSON.stringify(canonical(JSON.parse(body)));
  } catch {
    // Not JSON: the validator refuses it; hashed as sent.
  }
  return createHash('sha256').update(`${method.toUpperCase()}\n${path}\n${normal}`).digest('hex');
}

/**
 * The caller a key belongs to: a keyed hash of the bearer credential it presented. The credential
 * itself is never stored, and without the key a guessed token cannot be checked against the table.
 */
export function callerId(callerKey: Buffer, credential: string): string {
  return createHmac('sha256', callerKey).update(credential).digest('base64url');
}

/**
 * Answers kept for repeats: successes and refusals. A 5xx is not: a 502 is resumed and a 503 is
 * retried by repeating the call, so the repeat must run again, not be told the failure again. Nor
 * is a 401 (a route refusing a token it spent): the repeat gets it again from authentication, with
 * the `WWW-Authenticate` header every 401 carries.
 */
export function keepsAnswer(status: number): boolean {
  return status >= 200 && status < 500 && status !== 401;
}

/** The `name` a JSON body gives, when it gives one. */
function nameOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const name = parsed !== null && typeof parsed === 'object' ? (parsed as { name?: unknown }).name : undefined;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The object a request acts on, as kept answers name it: its path below `/v1/`, where a POST to a
 * collection names the member its body's `name` creates (`tenants/acme/wifi-keys/sensors`, the
 * path its DELETE takes). An admission is its Wi-Fi key: that is the secret of its answer that
 * outlives the enrollment token, and once the tenant enrolls, its key named `admission`.
 */
export function objectOf(method: string, path: string, body: string): string {
  let object = path.replace(/^\/v1\//, '').replace(/\/+$/, '');
  const name = method.toUpperCase() === 'POST' ? nameOf(body) : undefined;
  if (name !== undefined) object += `/${name}`;
  const admission = /^admissions\/([^/]+)$/.exec(object);
  return admission ? `tenants/${admission[1]}/wifi-keys/admission` : object;
}

/** Whether an answer's JSON hands out a secret (a field the logs redact): a create that issued or replaced one. */
export function carriesSecret(body: string, fields: readonly string[]): boolean {
  const walk = (v: unknown): boolean =>
    v !== null && typeof v === 'object' && Object.entries(v).some(([k, x]) => (typeof x === 'string' && fields.includes(k)) || walk(x));
  try {
    return walk(JSON.parse(body));
  } catch {
    return false;
  }
}

/** `/v1/tenants/{t}/records/{record}` → a matcher for concrete paths. */
export function pathMatcher(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}
