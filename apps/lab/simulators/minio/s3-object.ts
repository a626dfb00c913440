import { createHash } from 'node:crypto';
import { Errors, unsupportedCall } from './errors.js';
import type { S3Request } from './s3-request.js';

/** Calls on a key: PutObject (no copy), GetObject/HeadObject, DeleteObject. */
export function objectOperation({ c, key, body, now, method, resource, objects, bucketArn, objectArn, can, err }: S3Request): Response {
  if (method === 'PUT') {
    if (c.req.header('x-amz-copy-source')) return err(Errors.NotImplemented);
    if (!can('s3:PutObject', objectArn)) return err(Errors.AccessDenied);
    if (!objects) return err(Errors.NoSuchBucket);
    const etag = createHash('md5').update(body).digest('hex');
    objects.set(key, {
      body: Buffer.from(body),
      etag,
      contentType: c.req.header('content-type') ?? 'application/octet-stream',
      lastModified: now,
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
