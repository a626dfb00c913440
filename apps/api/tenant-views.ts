import { viewTenant, type TenantView } from '../../core/tenant-view.js';
import { getVersionedTenantRecord, tenantVersion } from '../../db/queries/tenants.js';
import type { Db } from '../../db/registry.js';
import type { SealKeys } from '../../db/seal.js';
import type { Site } from '../config/env.js';
import { objectPath, withConditions } from './conditions.js';

/** Tenant views with their conditions, from one read of their runs. */
export const conditioned = (db: Db, views: TenantView[]): Promise<TenantView[]> =>
  withConditions(
    db,
    views.map((view) => ({ object: objectPath.tenant(view.name), finished: view.status === 'ready', view })),
  );

/**
 * Past this many tenants the oldest view is dropped. A site has at most 62 tenants; names read
 * once and then deleted are what would otherwise accumulate.
 */
const MAX_VIEWS = 256;

/**
 * `GET /v1/tenants/{t}` without rebuilding what has not changed. Every read asks the registry for
 * the tenant's version (one primary-key lookup; the database bumps it on any change to the row or
 * to its steps, whoever writes them) and answers from the view this API built for that same
 * version, or reads and builds it again. So an answer is exactly as fresh as the registry at the
 * moment of the read, on every replica: no entry outlives a write, and no other replica or worker
 * needs to tell this one. Reading the whole tenant with its steps cost the API and PostgreSQL about
 * twice what the version lookup does (docs/performance.md).
 *
 * The views hold no secrets (reads never carry one) and are shared between answers: never mutate
 * one.
 */
export function tenantViews(site: Site, db: Db, keys: SealKeys): (name: string) => Promise<TenantView | undefined> {
  const built = new Map<string, { version: string; view: TenantView }>();
  const forget = (name: string) => {
    built.delete(name);
    return undefined;
  };
  return async function readTenant(name) {
    const version = await tenantVersion(db, name);
    if (version === undefined) return forget(name);
    const known = built.get(name);
    if (known?.version === version) return known.view;
    const found = await getVersionedTenantRecord(db, keys, name);
    if (!found) return forget(name);
    // The tenant's own runs bump its version too (migration 0006): the condition is part of the view.
    const view = (await conditioned(db, [viewTenant(site, found.record)]))[0]!;
    // Re-inserted, so the map's order is the order of last building and the first key the oldest.
    built.delete(name);
    built.set(name, { version: found.version, view });
    if (built.size > MAX_VIEWS) built.delete(built.keys().next().value!);
    return view;
  };
}
