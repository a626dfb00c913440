import { createHash } from 'node:crypto';
import aws4 from 'aws4';

/**
 * AWS Signature Version 4 for the MinIO adapter's header-authenticated calls (S3 and admin API
 * alike), through the aws4 library (docs/decisions.md, "SigV4 through aws4"). What is here is only
 * how the service calls it: the date and payload hash it signs, and what it sends back.
 */

const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

export interface SigV4Credentials {
  accessKey: string;
  secretKey: string;
}

export interface SignOptions {
  region: string;
  service?: string;
  now?: Date;
  /** Sign `UNSIGNED-PAYLOAD` instead of the body's hash. */
  unsignedPayload?: boolean;
}

export interface RequestToSign {
  method: string;
  url: URL;
  /** Headers the request will carry and that should be signed (e.g. content-type). */
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** `20150830T123600Z` for a date. */
const amzDateOf = (date: Date): string => date.toISOString().replace(/[-:]|\.\d{3}/g, '');

/**
 * The headers to send with a request: the caller's, plus x-amz-date, x-amz-content-sha256 and
 * authorization. `host` is signed from the URL and left for the HTTP client to send, since fetch
 * sets it itself from the same URL.
 */
export function signRequest(req: RequestToSign, creds: SigV4Credentials, opts: SignOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
  headers['x-amz-date'] = amzDateOf(opts.now ?? new Date());
  // Given as a header, the hash is what aws4 signs; the body itself is not handed over, so aws4
  // adds no content-type or content-length of its own for the client to have to send.
  headers['x-amz-content-sha256'] = opts.unsignedPayload
    ? UNSIGNED_PAYLOAD
    : createHash('sha256')
        .update(req.body ?? '')
        .digest('hex');
  const signed = aws4.sign(
    {
      method: req.method,
      host: req.url.host,
      // aws4 reads a '+' in an S3 path as a space (form encoding); in a URL's path it is a '+'.
      path: req.url.pathname.replace(/\+/g, '%2B') + req.url.search,
      service: opts.service ?? 's3',
      region: opts.region,
      headers: { ...headers },
    },
    { accessKeyId: creds.accessKey, secretAccessKey: creds.secretKey },
  );
  return { ...headers, authorization: String(signed.headers?.Authorization) };
}
