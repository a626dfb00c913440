import type { CoreSite } from '../../core/site.js';
import type { RecordView } from '../../core/views/record.js';
import { publishedName } from '../../core/names/workload.js';
import { stamps } from '../../core/wire-time.js';
import type { RecordRow } from '../queries/records.js';

/** A record row as the wire shows it (core/views/record.ts). */
export function viewRecord(site: Pick<CoreSite, 'domain'>, row: RecordRow): RecordView {
  return {
    ...publishedName(site, row),
    address: row.address,
    kind: row.kind,
    ...stamps(row),
  };
}
