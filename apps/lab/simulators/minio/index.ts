/**
 * MinIO simulator: the admin API subset and the S3 subset the state adapter and tenants use,
 * on MinIO's real wire format.
 *
 * Followed:
 * - madmin-go (github.com/minio/madmin-go): api.go (SigV4-signed requests under /minio/admin/v3,
 *   X-Amz-Content-Sha256 of the body, region us-east-1), encrypt.go (EncryptData/DecryptData:
 *   Argon2id + AES-256-GCM / ChaCha20-Poly1305 in a sio stream), user-commands.go (add-user with an
 *   encrypted AddOrUpdateUserReq, user-info, remove-user, list-users with an encrypted answer),
 *   policy-commands.go (add-/info-/remove-canned-policy, SetPolicy = PUT set-user-or-group-policy).
 * - secure-io/sio-go (sio.go, writer.go): the stream format.
 * - minio (github.com/minio/minio): cmd/admin-handlers-users.go (handler behaviour),
 *   cmd/api-errors.go and toAdminAPIErr (error codes, messages, statuses), cmd/api-response.go
 *   (APIErrorResponse JSON/XML), IAMStoreSys.DeletePolicy (in-use refusal, absent policy is fine).
 * - AWS SigV4 documentation and the aws-c-auth signing test suite for signature verification.
 *
 * Run: `serveApp(createMinioSimulator({...}).app)`, or `npx tsx apps/lab/simulators/minio/main.ts`.
 */
import { Hono } from 'hono';
import { withFaults, type Faults } from '../faults.js';
import { serve } from './serve.js';
import { builtinPolicies, type MinioSimState } from './state.js';

export type { MinioSimState } from './state.js';

export interface MinioSimulatorOptions {
  rootAccessKey?: string;
  rootSecretKey?: string;
  region?: string;
  /** Buckets that exist from the start. */
  buckets?: string[];
  /** The server clock, for skew checks (tests move it). */
  clock?: () => Date;
}

export interface MinioSimulator {
  app: Hono;
  state: MinioSimState;
  faults: Faults;
}

export function createMinioSimulator(opts: MinioSimulatorOptions = {}): MinioSimulator {
  const clock = opts.clock ?? (() => new Date());
  const state: MinioSimState = {
    root: { accessKey: opts.rootAccessKey ?? 'minioadmin', secretKey: opts.rootSecretKey ?? 'minioadmin' },
    region: opts.region ?? 'us-east-1',
    users: new Map(),
    policies: builtinPolicies(clock().toISOString()),
    buckets: new Map((opts.buckets ?? []).map((b) => [b, new Map()])),
    calls: [],
  };
  const app = new Hono();
  const faults = withFaults(app);

  app.all('*', (c) => serve(c, state, clock()));

  return { app, state, faults };
}
