import { type PublishedName } from '../names/workload.js';
import { type Stamps } from '../wire-time.js';

/** Where a record's address comes from (the registry's `records.kind`). */
export type RecordKind = 'subnet' | 'device';

/**
 * A published name the tenant added (spec: Record; its fields are the site's choice): `kind`
 * `subnet` is an address of the tenant's subnet, published with its PTR; `device` is an address
 * reserved for one of its devices, a second name with no PTR.
 */
export type RecordView = PublishedName & { address: string; kind: RecordKind } & Stamps;
