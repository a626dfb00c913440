import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';

/**
 * MinIO's error catalogue for the calls the simulator serves (codes, messages and statuses as in
 * minio cmd/api-errors.go and toAdminAPIErr), and its two error encodings: the admin API answers
 * JSON (writeErrorResponseJSON: Code, Message, Resource, RequestId, HostId), the S3 API answers
 * S3's XML <Error> document.
 */
export interface ApiError {
  code: string;
  message: string;
  status: number;
}

const e = (code: string, message: string, status: number): ApiError => ({ code, message, status });

export const Errors = {
  AccessDenied: e('AccessDenied', 'Access Denied.', 403),
  InvalidAccessKeyId: e('InvalidAccessKeyId', 'The Access Key Id you provided does not exist in our records.', 403),
  AccessKeyDisabled: e('InvalidAccessKeyId', 'Your account is disabled; please contact your administrator.', 403),
  SignatureDoesNotMatch: e(
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    403,
  ),
  RequestTimeTooSkewed: e('RequestTimeTooSkewed', "The difference between the request time and the server's time is too large.", 403),
  ContentSHA256Mismatch: e('XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.", 400),
  MissingDateHeader: e('AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header', 400),
  UnsignedHeaders: e('AccessDenied', 'There were headers present in the request which were not signed', 400),
  SignatureVersionNotSupported: e('InvalidRequest', 'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.', 400),
  CredMalformed: e(
    'AuthorizationQueryParametersError',
    'Error parsing the X-Amz-Credential parameter; the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".',
    400,
  ),
  InvalidServiceS3: e(
    'AuthorizationParametersError',
    'Error parsing the Credential/X-Amz-Credential parameter; incorrect service. This endpoint belongs to "s3".',
    400,
  ),
  NotImplemented: e('NotImplemented', 'A header you provided implies functionality that is not implemented', 501),
  NoSuchBucket: e('NoSuchBucket', 'The specified bucket does not exist', 404),
  NoSuchKey: e('NoSuchKey', 'The specified key does not exist.', 404),
  BucketAlreadyOwnedByYou: e('BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.', 409),
  InvalidMaxKeys: e('InvalidArgument', 'Argument maxKeys must be an integer between 0 and 2147483647', 400),
  MissingContentLength: e('MissingContentLength', 'You must provide the Content-Length HTTP header.', 411),
  MalformedPolicy: e('MalformedPolicy', 'Policy has invalid resource.', 400),
  AdminNoSuchUser: e('XMinioAdminNoSuchUser', 'The specified user does not exist.', 404),
  AdminNoSuchGroup: e('XMinioAdminNoSuchGroup', 'The specified group does not exist.', 404),
  AdminNoSuchPolicy: e('XMinioAdminNoSuchPolicy', 'The canned policy does not exist.', 404),
  AdminInvalidArgument: e('XMinioAdminInvalidArgument', 'Invalid arguments specified.', 400),
  AdminInvalidAccessKey: e('XMinioAdminInvalidAccessKey', 'The access key is invalid.', 400),
  AdminInvalidSecretKey: e('XMinioAdminInvalidSecretKey', 'The secret key is invalid.', 400),
  AdminConfigBadJSON: e('XMinioAdminConfigBadJSON', 'JSON configuration provided is of incorrect format', 400),
  AddUserInvalidArgument: e('XMinioInvalidIAMCredentials', 'Credential is not allowed to be same as admin access key', 403),
  AdminPolicyInUse: e('XMinioAdminPolicyInUse', 'The policy cannot be removed, as it is in use', 400),
} as const;

export function malformedIAMPolicy(detail: string): ApiError {
  return e('XMinioMalformedIAMPolicy', detail, 400);
}

export function regionMismatch(expected: string): ApiError {
  return e('AuthorizationHeaderMalformed', `The authorization header is malformed; the region is wrong; expecting '${expected}'.`, 400);
}

export function unsupportedCall(method: string, path: string): ApiError {
  return e('BadRequest', `An unsupported API call for method: ${method} at '${path}'`, 400);
}

/** MinIO's request id: the nanosecond clock in upper-case hex. */
export function requestId(): string {
  const ns = BigInt(Date.now()) * 1_000_000n + BigInt(randomBytes(2).readUInt16BE(0));
  return ns.toString(16).toUpperCase();
}

export const HOST_ID = createHash('sha256').update('minio-simulator').digest('hex');

/** Headers MinIO puts on every answer. */
export function commonHeaders(c: Context, reqId: string): void {
  c.header('Server', 'MinIO');
  c.header('X-Amz-Request-Id', reqId);
  c.header('X-Amz-Id-2', HOST_ID);
  c.header('Accept-Ranges', 'bytes');
  c.header('Vary', 'Origin, Accept-Encoding');
  c.header('X-Content-Type-Options', 'nosniff');
}

export function adminError(c: Context, err: ApiError, resource: string, reqId: string): Response {
  commonHeaders(c, reqId);
  const body = { Code: err.code, Message: err.message, Resource: resource, RequestId: reqId, HostId: HOST_ID };
  return c.body(JSON.stringify(body), err.status as 400, { 'Content-Type': 'application/json' });
}

export function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export function s3Error(c: Context, err: ApiError, where: { resource: string; bucket?: string; key?: string }, reqId: string): Response {
  commonHeaders(c, reqId);
  const parts = [`<Code>${err.code}</Code>`, `<Message>${xmlEscape(err.message)}</Message>`];
  if (where.key) parts.push(`<Key>${xmlEscape(where.key)}</Key>`);
  if (where.bucket) parts.push(`<BucketName>${xmlEscape(where.bucket)}</BucketName>`);
  parts.push(`<Resource>${xmlEscape(where.resource)}</Resource>`, `<RequestId>${reqId}</RequestId>`, `<HostId>${HOST_ID}</HostId>`);
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${parts.join('')}</Error>`;
  // A HEAD answer carries no body; MinIO then puts the code in headers instead.
  if (c.req.method === 'HEAD') {
    c.header('X-Minio-Error-Code', err.code);
    c.header('X-Minio-Error-Desc', `"${err.message}"`);
    return c.body(null, err.status as 400);
  }
  return c.body(xml, err.status as 400, { 'Content-Type': 'application/xml' });
}
