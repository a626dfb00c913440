import { timingSafeEqual } from 'node:crypto';
import { EMPTY_SHA256, UNSIGNED_PAYLOAD, canonicalRequest, decodePath, parseAuthorization, sha256Hex, signatureOf } from './sigv4-verify.js';
import { Errors, regionMismatch, type ApiError } from './errors.js';
import type { MinioSimState } from './state.js';

/**
 * SigV4 verification in the order MinIO's doesSignatureMatch / isReqAuthenticated applies it:
 * header form, credential scope (service, region), date and skew, signed host, access key (known,
 * enabled), signature, then the payload hash against the body.
 */

export type Caller = { accessKey: string; root: boolean };
export type AuthOutcome = { ok: true; caller: Caller } | { ok: false; error: ApiError; accessKey?: string };

/** MinIO's allowed clock skew (globalMaxSkewTime). */
const MAX_SKEW_MS = 15 * 60 * 1000;

function parseAmzDate(v: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(v);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

export interface IncomingRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: Uint8Array;
}

export function authenticate(state: MinioSimState, req: IncomingRequest, now: Date): AuthOutcome {
  const header = req.headers.get('authorization');
  if (!header) return { ok: false, error: Errors.AccessDenied };
  if (!header.startsWith('AWS4-HMAC-SHA256 ')) return { ok: false, error: Errors.SignatureVersionNotSupported };
  const auth = parseAuthorization(header);
  if (!auth) return { ok: false, error: Errors.CredMalformed };
  if (auth.service !== 's3') return { ok: false, error: Errors.InvalidServiceS3 };
  if (auth.region !== state.region) return { ok: false, error: regionMismatch(state.region) };

  const amzDate = req.headers.get('x-amz-date') ?? '';
  const when = parseAmzDate(amzDate);
  if (!when) return { ok: false, error: Errors.MissingDateHeader };
  if (Math.abs(now.getTime() - when.getTime()) > MAX_SKEW_MS) return { ok: false, error: Errors.RequestTimeTooSkewed };
  if (!auth.signedHeaders.includes('host')) return { ok: false, error: Errors.UnsignedHeaders };

  const root = auth.accessKey === state.root.accessKey;
  const user = root ? undefined : state.users.get(auth.accessKey);
  if (!root && !user) return { ok: false, error: Errors.InvalidAccessKeyId, accessKey: auth.accessKey };
  if (user && user.status !== 'enabled') return { ok: false, error: Errors.AccessKeyDisabled, accessKey: auth.accessKey };
  const secret = root ? state.root.secretKey : (user?.secretKey ?? '');

  const payloadHash = req.headers.get('x-amz-content-sha256') ?? EMPTY_SHA256;
  if (payloadHash.startsWith('STREAMING-')) return { ok: false, error: Errors.NotImplemented };
  const headers: Record<string, string> = {};
  req.headers.forEach((v, k) => (headers[k] = v));
  const canonical = canonicalRequest({
    method: req.method,
    path: decodePath(req.url.pathname),
    query: req.url.searchParams,
    headers,
    signedHeaders: auth.signedHeaders,
    payloadHash,
  });
  const expected = Buffer.from(signatureOf(secret, amzDate, auth.region, auth.service, canonical));
  const given = Buffer.from(auth.signature);
  const sameDay = auth.date8 === amzDate.slice(0, 8);
  if (!sameDay || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, error: Errors.SignatureDoesNotMatch, accessKey: auth.accessKey };
  }
  if (payloadHash !== UNSIGNED_PAYLOAD && payloadHash !== sha256Hex(req.body)) {
    return { ok: false, error: Errors.ContentSHA256Mismatch, accessKey: auth.accessKey };
  }
  return { ok: true, caller: { accessKey: auth.accessKey, root } };
}
