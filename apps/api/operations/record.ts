import type { RecordView } from '../../../core/views/record.js';
import { viewRecord } from '../../../db/views/record.js';
import { getRecord, listRecords } from '../../../db/queries/records.js';
import {
  attemptRecordDelete,
  attemptRecordPut,
  type RecordDeleteRequest,
  type RecordDeleteResult,
  type RecordPutRequest,
  type RecordPutResult,
} from '../../../contracts/record.js';
import { recordDelete, recordPut } from '../../../workflows/index.js';
import { published, type PublishedReads, type PublishingDeps } from './published-reads.js';
import { runIds } from '../../../contracts/ids.js';
import { objectPath } from '../conditions.js';

/** What the record routes ask of the service: PUT and DELETE on Temporal, reads from the registry. */
export interface RecordOperations extends PublishedReads<RecordView> {
  put(req: RecordPutRequest): Promise<RecordPutResult>;
  delete(req: RecordDeleteRequest): Promise<RecordDeleteResult>;
}

export function recordOperations(deps: PublishingDeps): RecordOperations {
  const { run, ...reads } = published(deps, { get: getRecord, list: listRecords, view: viewRecord, path: objectPath.record, finished: () => true });
  const put = (req: RecordPutRequest) =>
    run.attempt(
      recordPut,
      attemptRecordPut,
      {
        workflowId: runIds.recordPut(req.tenant, req.name),
        args: [{ tenant: req.tenant, name: req.name, parkedTimeoutMs: deps.parkedTimeoutMs }],
        tenant: req.tenant,
        object: `record ${req.name}`,
      },
      req,
    );
  const remove = async (req: RecordDeleteRequest) =>
    run.superseded(
      await run.call(
        recordDelete,
        attemptRecordDelete,
        { workflowId: runIds.recordDelete(req.tenant, req.name), tenant: req.tenant, object: `record ${req.name}` },
        req,
      ),
      'deleted',
      [runIds.recordPut(req.tenant, req.name)],
    );
  return { ...reads, put, delete: remove };
}
