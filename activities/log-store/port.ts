import type { ChangeResult, ObjectOutcome } from '../../core/backend-outcome.js';

type RouteSpec = { tenant: string; accountId: number; ingestToken: string; readToken: string };

/** What the tenant steps need of the log store's gateway: the tenant's account and tokens. */
export interface LogStorePort {
  ensure(spec: RouteSpec): Promise<ObjectOutcome[]>;
  /** Several tenants' routes made as `ensure` makes them, in one write of the gateway's route list (group commit). */
  write(specs: RouteSpec[]): Promise<Array<ChangeResult<ObjectOutcome[]>>>;
  plan(spec: RouteSpec): Promise<ObjectOutcome[]>;
  /** The tokens the gateway admits for a tenant (what a restore adopts), if it holds them. */
  heldTokens(tenant: string): Promise<{ ingestToken: string; readToken: string } | undefined>;
  remove(spec: { tenant: string }): Promise<void>;
  /** Whether the gateway holds the tenant's ingest route, by one small read. */
  holdsRoute(tenant: string): Promise<boolean>;
  /** Of these tenants, those lacking a route of theirs, from one read (apps/worker/log-route-keeper.ts). */
  lackingRoutes(tenants: string[]): Promise<string[]>;
  /** Both routes of each of these tenants lacking one, put back in one write; answers the tenants restored. */
  restoreRoutes(specs: RouteSpec[]): Promise<string[]>;
}
