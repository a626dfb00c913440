import type { PolicyDocument } from '../../../../backends/minio/policy.js';
import { commonHeaders, s3Error } from './errors.js';
import { isAllowed, type AccessRequest } from './iam.js';
import type { Caller } from './auth.js';
import type { S3Call, S3Request } from './s3-request.js';
import { bucketOperation } from './s3-bucket.js';
import { objectOperation } from './s3-object.js';
import type { MinioSimState } from './state.js';

/**
 * The S3 subset a tenant uses with its own credentials: PutObject, GetObject/HeadObject,
 * DeleteObject, ListObjectsV2, GetBucketLocation, HeadBucket, plus CreateBucket. Other calls
 * (ListObjects v1, ListBuckets, multipart, copy) answer NotImplemented or BadRequest. Every call is authorized
 * against the caller's canned policies as MinIO does (root may do anything); refusals are S3's
 * 403 AccessDenied XML.
 */

function allowed(state: MinioSimState, caller: Caller, req: AccessRequest): boolean {
  if (caller.root) return true;
  const user = state.users.get(caller.accessKey);
  const docs = (user?.policies ?? []).map((n) => state.policies.get(n)?.document).filter((d): d is PolicyDocument => d !== undefined);
  return isAllowed(docs, req);
}

export function handleS3(call: S3Call): Response {
  const { c, state, caller, bucket, key, reqId } = call;
  const resource = new URL(c.req.url).pathname;
  const bucketArn = `arn:aws:s3:::${bucket}`;
  const request: S3Request = {
    ...call,
    method: c.req.method,
    resource,
    objects: state.buckets.get(bucket),
    bucketArn,
    objectArn: `${bucketArn}/${key}`,
    can: (action, arn, conditions = {}) => allowed(state, caller, { action, resource: arn, conditions }),
    err: (e) => s3Error(c, e, { resource, bucket, key: key || undefined }, reqId),
  };
  commonHeaders(c, reqId);
  return key ? objectOperation(request) : bucketOperation(request);
}
