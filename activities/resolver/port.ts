import type { ObjectOutcome } from '../../core/backend-outcome.js';

/** What the tenant steps need of the site's resolver (PowerDNS Recursor): forwards for the tenant zones. */
export interface ResolverPort {
  ensure(spec: { zones: string[] }): Promise<ObjectOutcome[]>;
  plan(spec: { zones: string[] }): Promise<ObjectOutcome[]>;
  remove(spec: { zones: string[] }): Promise<void>;
}
