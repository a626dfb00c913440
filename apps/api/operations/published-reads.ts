import type { Site } from '../../config/env.js';
import { tenantExists } from '../../../db/queries/tenants.js';
import type { Client } from '@temporalio/client';
import type { Db, Registry } from '../../../db/registry.js';
import { runs, type Runs } from '../runs.js';
import type { Logger } from '../logger.js';

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
}

/** The registry reads the workload and record routes share: one object, a tenant's list, the tenant. */
export interface PublishedReads<View> {
  get(tenant: string, name: string): Promise<View | undefined>;
  list(tenant: string): Promise<View[]>;
  tenantRegistered(tenant: string): Promise<boolean>;
}

function publishedReads<Row, View>(site: Site, db: Db, kind: PublishedKind<Row, View>): PublishedReads<View> {
  return {
    async get(tenant, name) {
      const row = await kind.get(db, tenant, name);
      return row ? kind.view(site, row) : undefined;
    },
    async list(tenant) {
      return (await kind.list(db, tenant)).map((row) => kind.view(site, row));
    },
    tenantRegistered: (tenant) => tenantExists(db, tenant),
  };
}

/** A published kind's runs on Temporal and its reads, from the one set of dependencies. */
export function published<Row, View>(deps: PublishingDeps, kind: PublishedKind<Row, View>): PublishedReads<View> & { run: Runs } {
  return { run: runs(deps.client, deps.taskQueue, deps.parkedTimeoutMs), ...publishedReads(deps.site, deps.registry.db, kind) };
}
