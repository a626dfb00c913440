import { viewRecord, type RecordView } from '../../activities/records/view.js';
import { getRecord, listRecords } from '../../db/queries/records.js';
import { tenantExists } from '../../db/queries/tenants.js';
import {
  attemptRecordPut,
  type RecordDeleteRequest,
  type RecordDeleteResult,
  type RecordPutRequest,
  type RecordPutResult,
} from '../../workflows/contracts/record.js';
import { recordDelete, recordPut } from '../../workflows/index.js';
import { runs } from './runs.js';
import type { PublishingDeps } from './workload-operations.js';
import { runIds } from '../../workflows/contracts/ids.js';

/** What the record routes ask of the service: PUT and DELETE on Temporal, reads from the registry. */
export interface RecordOperations {
  put(req: RecordPutRequest): Promise<RecordPutResult>;
  delete(req: RecordDeleteRequest): Promise<RecordDeleteResult>;
  get(tenant: string, name: string): Promise<RecordView | undefined>;
  list(tenant: string): Promise<RecordView[]>;
  tenantRegistered(tenant: string): Promise<boolean>;
}

export function recordOperations(deps: PublishingDeps): RecordOperations {
  const { site, registry, client, taskQueue } = deps;
  const db = registry.db;
  const run = runs(client, taskQueue);
  return {
    put: (req) =>
      run.attempt(recordPut, attemptRecordPut, { workflowId: runIds.recordPut(req.tenant, req.name), args: [{ tenant: req.tenant, name: req.name }], tenant: req.tenant }, req),
    delete: (req) => run.execute(recordDelete, { workflowId: runIds.recordDelete(req.tenant, req.name), args: [req], tenant: req.tenant }),
    async get(tenant, name) {
      const row = await getRecord(db, tenant, name);
      return row ? viewRecord(site, row) : undefined;
    },
    async list(tenant) {
      return (await listRecords(db, tenant)).map((r) => viewRecord(site, r));
    },
    tenantRegistered: (tenant) => tenantExists(db, tenant),
  };
}
