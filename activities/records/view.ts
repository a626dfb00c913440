import type { Site } from '../../core/site.js';
import type { RecordKind, RecordRow } from '../../db/queries/records.js';
import { fqdnOf } from '../workloads/names.js';
import { stamps } from '../../core/wire-time.js';

/**
 * A published name the tenant added (spec: Record; its fields are the site's choice): `kind`
 * `subnet` is an address of the tenant's subnet, published with its PTR; `device` is an address
 * reserved for one of its devices, a second name with no PTR.
 */
export interface RecordView {
  tenant: string;
  name: string;
  fqdn: string;
  address: string;
  kind: RecordKind;
  created_at: string;
  updated_at: string;
}

export function viewRecord(site: Pick<Site, 'domain'>, row: RecordRow): RecordView {
  return {
    tenant: row.tenant,
    name: row.name,
    fqdn: fqdnOf(row.name, `${row.tenant}.${site.domain}`),
    address: row.address,
    kind: row.kind,
    ...stamps(row),
  };
}
