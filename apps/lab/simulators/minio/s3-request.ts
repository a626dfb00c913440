import type { Context } from 'hono';
import type { Caller } from './auth.js';
import type { ApiError } from './errors.js';
import type { MinioSimState, SimObject } from './state.js';

/**
 * The shapes an S3 call takes on its way through the simulator: what the server hands the dispatcher
 * (s3.ts), and what the dispatcher hands the bucket and object operations (s3-bucket.ts,
 * s3-object.ts). Apart so that the operations need nothing of the dispatcher that calls them.
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

/** A call with what every operation checks: the objects of its bucket (absent: no such bucket) and the caller's rights. */
export interface S3Request extends S3Call {
  method: string;
  resource: string;
  objects: Map<string, SimObject> | undefined;
  bucketArn: string;
  objectArn: string;
  can(action: string, arn: string, conditions?: Record<string, string>): boolean;
  err(e: ApiError): Response;
}
