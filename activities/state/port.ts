import type { ObjectOutcome } from '../../core/backend-outcome.js';

/** What the tenant steps need of the state store (MinIO): the tenant's credential, policy and prefix. */
export interface StatePort {
  ensure(spec: { tenant: string; accessKey: string; secretKey: string; prefix: string }): Promise<ObjectOutcome[]>;
  plan(spec: { tenant: string; accessKey: string; secretKey: string; prefix: string }): Promise<ObjectOutcome[]>;
  remove(spec: { tenant: string; accessKey: string }): Promise<void>;
}
