import type { TenantView } from '../../core/tenant-view.js';
import type { CreateRequest, CreateResult, DeleteResult, ReconcileResult, RestoreSecrets } from '../../workflows/contracts/tenant.js';

/** A create as the route asks it: the restore secrets in clear (they are sealed on the way to Temporal). */
export type CreateCall = Omit<CreateRequest, 'restore'> & { restore?: RestoreSecrets };

/** What the tenant routes ask of the service: runs on Temporal, reads from the registry. */
export interface TenantOperations {
  /** Results carry their secrets in the tenant view, ready to answer. */
  create(req: CreateCall): Promise<CreateResult>;
  delete(name: string): Promise<DeleteResult>;
  reconcile(name: string): Promise<ReconcileResult>;
  get(name: string): Promise<TenantView | undefined>;
  list(): Promise<TenantView[]>;
  isRegistered(name: string): Promise<boolean>;
  /** At a site with a tenant developer network the answer carries the admission's new Wi-Fi key. */
  admit(input: { name: string; mac?: string }): Promise<{ name: string; enrollment_token: string; expires_at: string; wifi?: { ssid: string; psk: string; mac?: string } }>;
  withdrawAdmission(name: string): Promise<boolean>;
  spendEnrollment(tokenHash: string): Promise<boolean>;
  /** The tenant a genuine tenant token names (MAC verified, registry not consulted). */
  tokenTenant(token: string): string | undefined;
  /** Whether a tenant token was revoked for good (replaced, or its tenant deleted). */
  tokenRevoked(token: string): Promise<boolean>;
}
