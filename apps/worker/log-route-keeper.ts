/**
 * The log gateway's route keeper (issue 45 item 3; docs/decisions.md, "Caddy reloaded by its
 * service manager"). Caddy keeps the tenants' routes in its running config only: a
 * `systemctl reload caddy` (`caddy reload --config /etc/caddy/Caddyfile`) replaces that config with
 * the Caddyfile's, and every tenant's tokens are refused until something writes the routes back.
 * Each worker looks once per `SITE_LOG_ROUTE_CHECK_INTERVAL` and writes back the routes of every
 * ready tenant that lacks one, with the tokens the registry holds, so a reload costs tenants at
 * most that interval and one write, not the hours until the next sweep. A look is one small read:
 * one tenant's ingest route, another tenant each round. A reload drops every route, so one missing
 * is enough to go through all of them; a single route someone deleted is found when its tenant's
 * turn comes, or by the sweep.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/registry.js';
import type { SealKeys } from '../../db/seal.js';
import { getTenantRow, listReadyTenants, openSecrets } from '../../db/queries/tenants.js';
import { deriveIdentity } from '../../core/identity.js';
import type { Site } from '../../activities/site.js';
import type { LogStorePort } from '../../activities/log-store/port.js';
import { oneGatewayWrite } from '../../activities/log-store/step.js';
import type { WorkerMetrics } from '../telemetry/metrics.js';
import { sealKeys } from '../config/keys.js';
import { logStoreArea } from '../../activities/log-store/area.js';
import { workerBackendCalls } from '../../activities/backend-areas.js';
import type { BackendCalls } from '../../backends/http/calls.js';
import { everyInterval } from './rounds.js';

export interface RouteKeeperDeps {
  db: Db;
  keys: SealKeys;
  site: Site;
  logStore: LogStorePort;
  log: Logger;
  metrics?: WorkerMetrics;
}

/**
 * One round: the ready tenants lacking a route, from one read; then, under the gateway's write lock
 * (the log-store step's), their rows read again, so a tenant being deleted meanwhile is not given
 * its routes back (a delete marks it `deleting` before its routes go), and every lacking route
 * written back in one write. Returns the tenants restored.
 */
export async function restoreLostRoutes(deps: RouteKeeperDeps): Promise<string[]> {
  const ready = await listReadyTenants(deps.db);
  if (ready.length === 0) return [];
  const lacking = await deps.logStore.lackingRoutes(ready.map((t) => t.name));
  if (lacking.length === 0) return [];
  const restored = await oneGatewayWrite(deps.db, async () => {
    const specs = [];
    for (const name of lacking) {
      const row = await getTenantRow(deps.db, name);
      if (row?.status !== 'ready') continue;
      const { logIngestToken, logReadToken } = openSecrets(deps.keys, row);
      // Tokens the registry does not hold are the tenant's reconcile's to adopt or mint, not this.
      if (!logIngestToken || !logReadToken) continue;
      const accountId = deriveIdentity(deps.site, name, row.index).logAccountId;
      specs.push({ tenant: name, accountId, ingestToken: logIngestToken, readToken: logReadToken });
    }
    return specs.length > 0 ? deps.logStore.restoreRoutes(specs) : [];
  });
  if (restored.length > 0) {
    deps.metrics?.logRoutesRestored.inc(restored.length);
    deps.log.warn({ tenants: restored.length, first: restored[0] }, 'log gateway had lost tenant routes (a reload?); written back');
  }
  return restored;
}

/** One look (the `turn`-th ready tenant's ingest route), and the whole round when it is missing. */
export async function keeperRound(deps: RouteKeeperDeps, turn: number): Promise<string[]> {
  const ready = await listReadyTenants(deps.db);
  if (ready.length === 0) return [];
  if (await deps.logStore.holdsRoute(ready[turn % ready.length]!.name)) return [];
  return restoreLostRoutes(deps);
}

/** Runs a round every `intervalMs` until stopped (apps/worker/rounds.ts), another tenant's route each look. */
export const startLogRouteKeeper = (deps: RouteKeeperDeps, intervalMs: number) =>
  everyInterval('log route keeper', intervalMs, deps.log, (turn) => keeperRound(deps, turn));

/**
 * The keeper of a worker process (apps/worker/main.ts, the lab's in-process worker), when the site
 * has a log store; the worker's own log-store port when it has one bound, else one of its own,
 * its calls paced and counted with the worker's (`calls`).
 */
export function keepLogRoutes(parts: {
  site: Site | undefined;
  db: Db;
  log: Logger;
  metrics?: WorkerMetrics;
  logStore?: LogStorePort;
  calls?: BackendCalls;
}): { stop(): Promise<void> } | undefined {
  const site = parts.site;
  if (!site?.logStore) return undefined;
  const logStore = parts.logStore ?? logStoreArea.bind(site, site.backendTimeoutMs, parts.calls ?? workerBackendCalls(site));
  if (!logStore) return undefined;
  return startLogRouteKeeper({ db: parts.db, keys: sealKeys(site), site, logStore, log: parts.log, metrics: parts.metrics }, site.logStore.routeCheckMs);
}
