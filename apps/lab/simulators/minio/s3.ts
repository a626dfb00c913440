import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { PolicyDocument } from '../../../../activities/state/policy.js';
import { Errors, commonHeaders, s3Error, unsupportedCall, xmlEscape, type ApiError } from './errors.js';
import { isAllowed, type AccessRequest } from './iam.js';
import type { Caller } from './auth.js';
import type { MinioSimState } from './state.js';

/**
 * The S3 subset a tenant uses with its own credentials: PutObject, GetObject/HeadObject,
 * DeleteObject, ListObjectsV2, GetBucketLocation, HeadBucket, plus CreateBucket. Other calls
 * (ListObjects v1, ListBuckets, multipart, copy) answer NotImplemented or BadRequest. Every call is authorized
 * against the caller's canned policies as MinIO does (root may do anything); refusals are S3's
 * 403 AccessDenied XML.
 */

export interface S3Call {
  c: Context;
  state: MinioSimState;
  caller: Caller;
  bucket: string;
  key: string;
  query: URLSearchParams;
  body: Uint8Array;
  reqId: string;
  now: Date;
}

function allowed(state: MinioSimState, caller: Caller, req: AccessRequest): boolean {
  if (caller.root) return true;
  const user = state.users.get(caller.accessKey);
  const docs = (user?.policies ?? [])
    .map((n) => state.policies.get(n)?.document)
    .filter((d): d is PolicyDocument => d !== undefined);
  return isAllowed(docs, req);
}

const NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

function xml(c: Context, body: string): Response {
  return c.body(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, 200, { 'Content-Type': 'application/xml' });
}

/** `2006-01-02T15:04:05.000Z`, the time format of S3 listings. */
const iso = (d: Date) => d.toISOString();

export function handleS3(call: S3Call): Response {
  const { c, state, caller, bucket, key, query, reqId } = call;
  const resource = new URL(c.req.url).pathname;
  const err = (e: ApiError) => s3Error(c, e, { resource, bucket, key: key || undefined }, reqId);
  const method = c.req.method;
  const bucketArn = `arn:aws:s3:::${bucket}`;
  const objectArn = `${bucketArn}/${key}`;
  const can = (action: string, arn: string, conditions: Record<string, string> = {}) =>
    allowed(state, caller, { action, resource: arn, conditions });
  const objects = state.buckets.get(bucket);
  commonHeaders(c, reqId);

  if (!key) {
    if (method === 'PUT' && [...query.keys()].length === 0) {
      if (!can('s3:CreateBucket', bucketArn)) return err(Errors.AccessDenied);
      if (objects) return err(Errors.BucketAlreadyOwnedByYou);
      state.buckets.set(bucket, new Map());
      c.header('Location', `/${bucket}`);
      return c.body(null, 200);
    }
    if ((method === 'GET' || method === 'HEAD') && query.has('location')) {
      if (!can('s3:GetBucketLocation', bucketArn)) return err(Errors.AccessDenied);
      if (!objects) return err(Errors.NoSuchBucket);
      const region = state.region === 'us-east-1' ? '' : xmlEscape(state.region);
      return xml(c, `<LocationConstraint xmlns="${NS}">${region}</LocationConstraint>`);
    }
    if (method === 'HEAD' && [...query.keys()].length === 0) {
      // HeadBucket is authorized as s3:ListBucket, without a prefix: a prefix-bound user is refused.
      if (!can('s3:ListBucket', bucketArn)) return err(Errors.AccessDenied);
      if (!objects) return err(Errors.NoSuchBucket);
      return c.body(null, 200);
    }
    if (method === 'GET' && query.get('list-type') === '2') {
      const prefix = query.get('prefix') ?? '';
      if (!can('s3:ListBucket', bucketArn, { 's3:prefix': prefix })) return err(Errors.AccessDenied);
      if (!objects) return err(Errors.NoSuchBucket);
      return listV2(c, bucket, objects, query, prefix, err);
    }
    return err(method === 'GET' ? Errors.NotImplemented : unsupportedCall(method, resource));
  }

  if (method === 'PUT') {
    if (c.req.header('x-amz-copy-source')) return err(Errors.NotImplemented);
    if (!can('s3:PutObject', objectArn)) return err(Errors.AccessDenied);
    if (!objects) return err(Errors.NoSuchBucket);
    const etag = createHash('md5').update(call.body).digest('hex');
    objects.set(key, {
      body: Buffer.from(call.body),
      etag,
      contentType: c.req.header('content-type') ?? 'application/octet-stream',
      lastModified: call.now,
    });
    c.header('ETag', `"${etag}"`);
    return c.body(null, 200);
  }
  if (method === 'GET' || method === 'HEAD') {
    if (!can('s3:GetObject', objectArn)) return err(Errors.AccessDenied);
    if (!objects) return err(Errors.NoSuchBucket);
    const obj = objects.get(key);
    if (!obj) {
      // Who may not list the bucket does not learn whether the key exists (GetObjectHandler).
      return err(can('s3:ListBucket', bucketArn) ? Errors.NoSuchKey : Errors.AccessDenied);
    }
    c.header('ETag', `"${obj.etag}"`);
    c.header('Last-Modified', obj.lastModified.toUTCString());
    c.header('Content-Type', obj.contentType);
    c.header('Content-Length', String(obj.body.length));
    if (method === 'HEAD') return c.body(null, 200);
    return c.body(new Uint8Array(obj.body), 200);
  }
  if (method === 'DELETE') {
    if (!can('s3:DeleteObject', objectArn)) return err(Errors.AccessDenied);
    if (!objects) return err(Errors.NoSuchBucket);
    objects.delete(key);
    return c.body(null, 204);
  }
  return err(unsupportedCall(method, resource));
}

function listV2(
  c: Context,
  bucket: string,
  objects: Map<string, { body: Buffer; etag: string; lastModified: Date }>,
  query: URLSearchParams,
  prefix: string,
  err: (e: ApiError) => Response,
): Response {
  const delimiter = query.get('delimiter') ?? '';
  const maxKeysRaw = query.get('max-keys');
  const maxKeys = maxKeysRaw === null ? 1000 : Number(maxKeysRaw);
  if (!Number.isInteger(maxKeys) || maxKeys < 0) return err(Errors.InvalidMaxKeys);
  const token = query.get('continuation-token');
  const startAfter = query.get('start-after') ?? '';
  const after = token ? Buffer.from(token, 'base64').toString('utf8') : startAfter;

  const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
  const contents: string[] = [];
  const prefixes = new Set<string>();
  let count = 0;
  let last = '';
  let truncated = false;
  for (const k of keys) {
    if (count >= Math.min(maxKeys, 1000)) {
      truncated = true;
      break;
    }
    const rest = k.slice(prefix.length);
    const cut = delimiter ? rest.indexOf(delimiter) : -1;
    if (cut >= 0) {
      const p = prefix + rest.slice(0, cut + delimiter.length);
      if (prefixes.has(p)) continue;
      prefixes.add(p);
      // The next page starts after every key rolled up into this prefix.
      count++;
      last = p + '\uffff';
      continue;
    } else {
      const o = objects.get(k)!;
      contents.push(
        `<Contents><Key>${xmlEscape(k)}</Key><LastModified>${iso(o.lastModified)}</LastModified>` +
          `<ETag>&#34;${o.etag}&#34;</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
      );
    }
    count++;
    last = k;
  }
  const parts = [`<Name>${xmlEscape(bucket)}</Name>`, `<Prefix>${xmlEscape(prefix)}</Prefix>`];
  if (startAfter) parts.push(`<StartAfter>${xmlEscape(startAfter)}</StartAfter>`);
  if (token) parts.push(`<ContinuationToken>${xmlEscape(token)}</ContinuationToken>`);
  if (truncated) parts.push(`<NextContinuationToken>${Buffer.from(last).toString('base64')}</NextContinuationToken>`);
  parts.push(`<KeyCount>${count}</KeyCount>`, `<MaxKeys>${maxKeys}</MaxKeys>`);
  if (delimiter) parts.push(`<Delimiter>${xmlEscape(delimiter)}</Delimiter>`);
  parts.push(`<IsTruncated>${truncated}</IsTruncated>`, ...contents);
  for (const p of prefixes) parts.push(`<CommonPrefixes><Prefix>${xmlEscape(p)}</Prefix></CommonPrefixes>`);
  return xml(c, `<ListBucketResult xmlns="${NS}">${parts.join('')}</ListBucketResult>`);
}
