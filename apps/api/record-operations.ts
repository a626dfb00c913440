import { viewRecord, type RecordView } from '../../activities/records/view.js';
import { getRecord, listRecords } from '../../db/queries/records.js';
import { tenantExists } from '../../db/queries/tenants.js';
import {
  attemptRecordPut,
  recordIds,
  type RecordDeleteRequest,
  type RecordDeleteResult,
  type RecordPutRequest,
  type RecordPutResult,
} from '../../workflows/record-shared.js';
import { runUnavailable } from './errors.js';
import { startOptions } from '../../temporal/start-options.js';
import { updateWithStart, type PublishingDeps } from './workload-operations.js';

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
  return {
    put: (req) =>
      updateWithStart<RecordPutResult, RecordPutRequest>(client, attemptRecordPut, 'recordPut', {
        workflowId: recordIds.put(req.tenant, req.name),
        args: [{ tenant: req.tenant, name: req.name }],
        start: startOptions(taskQueue, 'record-put', req.tenant),
      }, req),
    async delete(req) {
      return client.workflow
        .execute('recordDelete', { workflowId: recordIds.delete(req.tenant, req.name), args: [req], ...startOptions(taskQueue, 'record-delete', req.tenant) })
        .catch((err: unknown) => Promise.reject(runUnavailable(err)));
    },
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
