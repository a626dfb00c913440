import type { Site } from '../../core/site.js';
import type { RecordKind, RecordRow } from '../../db/queries/records.js';
import { publishedName, type PublishedName } from '../workloads/names.js';
import { stamps, type Stamps } from '../../core/wire-time.js';

/**
 * A published name the tenant added (spec: Record; its fields are the site's choice): `kind`
 * `subnet` is an address of the tenant's subnet, published with its PTR; `device` is an address
 * reserved for one of its devices, a second name with no PTR.
 */
export type RecordView = PublishedName & { address: string; kind: RecordKind } & Stamps;

export function viewRecord(site: Pick<Site, 'domain'>, row: RecordRow): RecordView {
  return {
    ...publishedName(site, row),
    address: row.address,
    kind: row.kind,
    ...stamps(row),
  };
}
