import type { PolicyDocument } from '../../../../backends/minio/policy.js';

/** The simulator's in-memory MinIO: IAM (users, canned policies, user->policy mappings) and objects. */
export interface SimUser {
  secretKey: string;
  status: 'enabled' | 'disabled';
  /** Canned policies mapped to the user, in the order set. */
  policies: string[];
  updatedAt: string;
}

export interface SimPolicy {
  document: PolicyDocument;
  createDate: string;
  updateDate: string;
}

export interface SimObject {
  body: Buffer;
  etag: string;
  contentType: string;
  lastModified: Date;
}

export interface SimCall {
  method: string;
  /** Path below the admin prefix (e.g. `add-user`) or the S3 path. */
  path: string;
  api: 'admin' | 's3';
  accessKey?: string;
  status: number;
}

export interface MinioSimState {
  root: { accessKey: string; secretKey: string };
  region: string;
  users: Map<string, SimUser>;
  policies: Map<string, SimPolicy>;
  buckets: Map<string, Map<string, SimObject>>;
  /** Every authenticated or refused call, so tests can see which calls an adapter made. */
  calls: SimCall[];
}

const ALL_S3 = ['arn:aws:s3:::*'];

/** The canned policies every MinIO ships with (`mc admin policy ls` on a fresh server). */
export function builtinPolicies(now: string): Map<string, SimPolicy> {
  const p = (statements: PolicyDocument['Statement']): SimPolicy => ({
    document: { Version: '2012-10-17', Statement: statements },
    createDate: now,
    updateDate: now,
  });
  return new Map([
    ['readwrite', p([{ Effect: 'Allow', Action: ['s3:*'], Resource: ALL_S3 }])],
    ['readonly', p([{ Effect: 'Allow', Action: ['s3:GetBucketLocation', 's3:GetObject'], Resource: ALL_S3 }])],
    ['writeonly', p([{ Effect: 'Allow', Action: ['s3:PutObject'], Resource: ALL_S3 }])],
    [
      'consoleAdmin',
      p([
        { Effect: 'Allow', Action: ['admin:*'], Resource: [] },
        { Effect: 'Allow', Action: ['kms:*'], Resource: [] },
        { Effect: 'Allow', Action: ['s3:*'], Resource: ALL_S3 },
      ]),
    ],
  ]);
}
