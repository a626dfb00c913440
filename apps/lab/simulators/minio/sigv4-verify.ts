import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 as the MinIO simulator verifies it (auth.ts), written apart from the
 * service's signer (backends/minio/sigv4.ts, the aws4 library) so the fidelity tests are not the
 * signer checking itself. Follows the canonical-request rules of the AWS SigV4 documentation and
 * the aws-c-auth signing test suite (its vectors are the unit tests). The path is encoded once, as
 * S3 wants, not twice as other AWS services do.
 */

export const ALGORITHM = 'AWS4-HMAC-SHA256';
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** AWS UriEncode: every byte but A-Z a-z 0-9 - _ . ~ as %XX (upper hex); '/' kept when asked. */
export function uriEncode(value: string, keepSlash = false): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(ch) || (keepSlash && ch === '/')) out += ch;
    else out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Canonical URI of a decoded path: each segment encoded once, slashes kept. */
export function canonicalUri(decodedPath: string): string {
  const p = decodedPath === '' ? '/' : decodedPath;
  return uriEncode(p, true);
}

/** Decode a request's raw (percent-encoded) path; an undecodable path is used as it came. */
export function decodePath(rawPath: string): string {
  try {
    return decodeURIComponent(rawPath);
  } catch {
    return rawPath;
  }
}

/** Canonical query string: names and values encoded, sorted by name then value. */
export function canonicalQuery(params: Iterable<readonly [string, string]>): string {
  const pairs = [...params].map(([k, v]) => [uriEncode(k), uriEncode(v)] as const);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** Header values are trimmed and inner runs of spaces collapse to one (the suite's get-header-value-trim). */
function canonicalHeaderValue(value: string): string {
  return value.trim().replace(/\s+/g, ' ');
}

export interface CanonicalInput {
  method: string;
  /** Decoded path, e.g. `/bucket/a b`. */
  path: string;
  /** Decoded query parameters. */
  query: Iterable<readonly [string, string]>;
  /** Header names in any case; only those in `signedHeaders` take part. */
  headers: Record<string, string>;
  /** Lower-case header names to sign. */
  signedHeaders: string[];
  payloadHash: string;
}

export function canonicalRequest(input: CanonicalInput): string {
  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(input.headers)) {
    const name = k.toLowerCase();
    const prev = lower.get(name);
    lower.set(name, prev === undefined ? canonicalHeaderValue(v) : `${prev},${canonicalHeaderValue(v)}`);
  }
  const names = [...input.signedHeaders].map((h) => h.toLowerCase()).sort();
  const headerLines = names.map((n) => `${n}:${lower.get(n) ?? ''}\n`).join('');
  return [input.method.toUpperCase(), canonicalUri(input.path), canonicalQuery(input.query), headerLines, names.join(';'), input.payloadHash].join('\n');
}

export function credentialScope(amzDate: string, region: string, service: string): string {
  return `${amzDate.slice(0, 8)}/${region}/${service}/aws4_request`;
}

export function stringToSign(amzDate: string, scope: string, canonical: string): string {
  return [ALGORITHM, amzDate, scope, sha256Hex(canonical)].join('\n');
}

export function signingKey(secretKey: string, date8: string, region: string, service: string): Buffer {
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  return hmac(hmac(hmac(hmac('AWS4' + secretKey, date8), region), service), 'aws4_request');
}

export function signatureOf(secretKey: string, amzDate: string, region: string, service: string, canonical: string): string {
  const scope = credentialScope(amzDate, region, service);
  const key = signingKey(secretKey, amzDate.slice(0, 8), region, service);
  return createHmac('sha256', key)
    .update(stringToSign(amzDate, scope, canonical))
    .digest('hex');
}

export interface ParsedAuthorization {
  accessKey: string;
  date8: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

/** Parse `AWS4-HMAC-SHA256 Credential=AK/20150830/us-east-1/s3/aws4_request, SignedHeaders=a;b, Signature=hex`. */
export function parseAuthorization(header: string): ParsedAuthorization | undefined {
  if (!header.startsWith(ALGORITHM + ' ')) return undefined;
  const fields = new Map<string, string>();
  for (const part of header.slice(ALGORITHM.length + 1).split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) fields.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const credential = fields.get('Credential');
  const signed = fields.get('SignedHeaders');
  const signature = fields.get('Signature');
  if (!credential || !signed || !signature) return undefined;
  // The access key may itself contain '/', so the scope is read from the end.
  const parts = credential.split('/');
  if (parts.length < 5 || parts[parts.length - 1] !== 'aws4_request') return undefined;
  const [date8, region, service] = parts.slice(-4, -1) as [string, string, string];
  return {
    accessKey: parts.slice(0, -4).join('/'),
    date8,
    region,
    service,
    signedHeaders: signed.split(';').filter(Boolean),
    signature,
  };
}
