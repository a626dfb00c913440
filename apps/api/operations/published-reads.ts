import type { Site } from '../../config/env.js';
import type { Client } from '@temporalio/client';
import type { Db, Registry } from '../../../db/registry.js';
import { runs, type Runs } from '../runs.js';
import { siteLostAnswers } from '../lost-answers.js';
import type { Logger } from '../logger.js';

/** What the workload, record and device operations need: the registry, and Temporal for their runs. */
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

/** What an object's operations run on (apps/api/operations/object-operations.ts): the registry, and its runs on Temporal. */
export interface ObjectDeps {
  db: Db;
  run: Runs;
  parkedTimeoutMs: number;
}

/** The object operations' dependencies, from the site's: a run's lost answers are collected from the registry (lost-answers.ts). */
export function objectDeps(deps: PublishingDeps): ObjectDeps {
  const db = deps.registry.db;
  return { db, run: runs(deps.client, deps.taskQueue, deps.parkedTimeoutMs, siteLostAnswers(deps.site, db)), parkedTimeoutMs: deps.parkedTimeoutMs };
}
