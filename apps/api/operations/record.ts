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
import { runIds } from '../../../contracts/ids.js';
import { objectPath } from '../conditions.js';
import { objectOperations } from './object-operations.js';
import type { ObjectReads } from './object-reads.js';
import { objectDeps, type PublishingDeps } from './published-reads.js';

/** What the record routes ask of the service: PUT and DELETE on Temporal, reads from the registry. */
export interface RecordOperations extends ObjectReads<RecordView> {
  put(req: RecordPutRequest): Promise<RecordPutResult>;
  delete(req: RecordDeleteRequest): Promise<RecordDeleteResult>;
}

export function recordOperations(deps: PublishingDeps): RecordOperations {
  const { write, remove, ...reads } = objectOperations(objectDeps(deps), {
    noun: 'record',
    reads: { get: getRecord, list: listRecords, view: (row) => viewRecord(deps.site, row), path: objectPath.record, finished: () => true },
    write: { workflow: recordPut, update: attemptRecordPut, id: runIds.recordPut },
    remove: { workflow: recordDelete, update: attemptRecordDelete, id: runIds.recordDelete },
  });
  return { ...reads, put: (req) => write(req), delete: remove };
}
