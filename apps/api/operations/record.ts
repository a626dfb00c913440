import { viewRecord, type RecordView } from '../../../activities/records/view.js';
import { getRecord, listRecords } from '../../../db/queries/records.js';
import {
  attemptRecordPut,
  type RecordDeleteRequest,
  type RecordDeleteResult,
  type RecordPutRequest,
  type RecordPutResult,
} from '../../../workflows/contracts/record.js';
import { recordDelete, recordPut } from '../../../workflows/index.js';
import { runs } from '../runs.js';
import { publishedReads, type PublishedReads, type PublishingDeps } from './published-reads.js';
import { runIds } from '../../../workflows/contracts/ids.js';

/** What the record routes ask of the service: PUT and DELETE on Temporal, reads from the registry. */
export interface RecordOperations extends PublishedReads<RecordView> {
  put(req: RecordPutRequest): Promise<RecordPutResult>;
  delete(req: RecordDeleteRequest): Promise<RecordDeleteResult>;
}

export function recordOperations(deps: PublishingDeps): RecordOperations {
  const { site, registry, client, taskQueue } = deps;
  const run = runs(client, taskQueue);
  return {
    put: (req) =>
      run.attempt(recordPut, attemptRecordPut, { workflowId: runIds.recordPut(req.tenant, req.name), args: [{ tenant: req.tenant, name: req.name }], tenant: req.tenant }, req),
    delete: (req) => run.execute(recordDelete, { workflowId: runIds.recordDelete(req.tenant, req.name), args: [req], tenant: req.tenant }),
    ...publishedReads(site, registry.db, { get: getRecord, list: listRecords, view: viewRecord }),
  };
}
