import { Errors, unsupportedCall, xmlEscape } from './errors.js';
import { listV2 } from './s3-list.js';
import { NS, xml } from './s3-xml.js';
import type { S3Request } from './s3-request.js';

/** Calls on a bucket (no key): CreateBucket, GetBucketLocation, HeadBucket, ListObjectsV2. */
export function bucketOperation({ c, state, bucket, query, method, resource, objects, bucketArn, can, err }: S3Request): Response {
  const bare = [...query.keys()].length === 0;
  if (method === 'PUT' && bare) {
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
  if (method === 'HEAD' && bare) {
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
