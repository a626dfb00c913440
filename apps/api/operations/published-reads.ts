import type { Site } from '../../config/env.js';
import { tenantExists } from '../../../db/queries/tenants.js';
import type { Client } from '@temporalio/client';
import type { Db, Registry } from '../../../db/registry.js';
import { runs, type Runs } from '../runs.js';
import { siteLostAnswers } from '../lost-answers.js';
import type { Logger } from '../logger.js';
import type { Condition } from '../../../core/object-life.js';
import { withConditions } from '../conditions.js';

/** What the workload and record operations need: the registry, and Temporal for their runs. */
export interface PublishingDeps {
  site: Site;
  registry: Registry;
  client: Client;
  taskQueue: string;
  /** How long a run parked on a failed step waits for the repeat (`PARKED_RUN_TIMEOUT`). */
  parkedTimeoutMs: number;
  /** Where an audit entry goes when the registry is away after a run answered (after-run.ts). */
  log?: Logger;
}

/** How one kind of published object (a workload, a record) is read from the registry and shown. */
export interface PublishedKind<Row, View> {
  get(db: Db, tenant: string, name: string): Promise<Row | undefined>;
  list(db: Db, tenant: string): Promise<Row[]>;
  view(site: Pick<Site, 'domain'>, row: Row): View;
  /** Where its runs name it (apps/api/conditions.ts `objectPath`). */
  path(tenant: string, name: string): string;
  /** Whether its row says it is finished. */
  finished(row: Row): boolean;
}

/** The registry reads the workload and record routes share: one object, a tenant's list, the tenant; each object with its condition. */
export interface PublishedReads<View extends object> {
  get(tenant: string, name: string): Promise<(View & { condition: Condition }) | undefined>;
  list(tenant: string): Promise<(View & { condition: Condition })[]>;
  tenantRegistered(tenant: string): Promise<boolean>;
}

function publishedReads<Row, View extends object>(site: Site, db: Db, kind: PublishedKind<Row, View>): PublishedReads<View> {
  return {
    async get(tenant, name) {
      const row = await kind.get(db, tenant, name);
      return row ? (await withConditions(db, [{ object: kind.path(tenant, name), finished: kind.finished(row), view: kind.view(site, row) }]))[0] : undefined;
    },
    async list(tenant) {
      const rows = await kind.list(db, tenant);
      return withConditions(
        db,
        rows.map((row) => {
          const view = kind.view(site, row);
          return { object: kind.path(tenant, (view as { name: string }).name), finished: kind.finished(row), view };
        }),
      );
    },
    tenantRegistered: (tenant) => tenantExists(db, tenant),
  };
}

/** A published kind's runs on Temporal and its reads, from the one set of dependencies. */
export function published<Row, View extends object>(deps: PublishingDeps, kind: PublishedKind<Row, View>): PublishedReads<View> & { run: Runs } {
  return {
    run: runs(deps.client, deps.taskQueue, deps.parkedTimeoutMs, siteLostAnswers(deps.site, deps.registry.db)),
    ...publishedReads(deps.site, deps.registry.db, kind),
  };
}
