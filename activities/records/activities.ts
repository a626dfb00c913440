import type { Refusal } from '../../core/refusal.js';
import { deleteRecord, getRecord, nameOwner, saveRecord as saveRecordRow, tenantDeviceAddresses } from '../../db/queries/records.js';
import type { RecordKind } from '../../core/views/record.js';
import { getTenantRow } from '../../db/queries/tenants.js';
import { LOCK_SPACE, withLocks } from '../../db/queries/locks.js';
import type { Db } from '../../db/registry.js';
import type { RecordDeleteRequest, RecordPutRequest } from '../../contracts/record.js';

import type { ActivityDeps } from '../deps.js';
import { fqdnOf } from '../../core/names/workload.js';
import { asBackendStep } from '../step-failure.js';
import { deriveIdentity } from '../../core/identity.js';
import { classifyRecordAddress } from './address.js';
import { publishName, syncPtrs, tenantForPublishing, unpublishName, withDnsWrites } from './publish.js';
import type { RecordView } from '../../core/views/record.js';
import { viewRecord } from '../../db/views/record.js';

export type RecordPutCheck = { kind: 'proceed'; index: number; recordKind: RecordKind; registered: boolean } | Refusal;
export type RecordDeleteStart = { kind: 'proceed'; index: number } | Refusal;

const refuse = (error: Refusal['error'], message: string): Refusal => ({ kind: 'refused', error, message });

/**
 * The activities of record PUT and DELETE (spec: Record). The registry decides what may be
 * published; the dns activities write one rrset at a time and re-align the PTRs, so a repeated
 * call resumes and the names the tenant publishes itself stay as they are.
 */
export function recordActivities(deps: ActivityDeps) {
  return {
    checkRecordPut: (req: RecordPutRequest): Promise<RecordPutCheck> => decide(deps, deps.db, req),
    saveRecord: (input: RecordPutRequest & { recordKind: RecordKind }): Promise<{ kind: 'saved' } | Refusal> => saveRecord(deps, input),
    'dns.publish-record': (input: { tenant: string; index: number; name: string; address: string }): Promise<void> => publishRecord(deps, input),
    recordView: (input: { tenant: string; name: string }): Promise<RecordView | undefined> => recordView(deps, input),
    beginRecordDelete: (req: RecordDeleteRequest): Promise<RecordDeleteStart> => beginRecordDelete(deps, req),
    'dns.unpublish-record': (input: { tenant: string; index: number; name: string }): Promise<void> => unpublishRecord(deps, input),
    forgetRecord: (req: RecordDeleteRequest): Promise<void> => forgetRecord(deps, req),
  };
}

/**
 * Whether the name and address may be published: the tenant ready, the name no workload's or
 * device's, the address in the subnet or reserved for one of the tenant's devices. Read through
 * `exec`: the registry, or the transaction that holds the tenant's names lock.
 */
async function decide(deps: ActivityDeps, exec: Db, req: RecordPutRequest): Promise<RecordPutCheck> {
  const tenant = await tenantForPublishing({ ...deps, db: exec }, req.tenant);
  if ('kind' in tenant) return tenant;
  const t = deriveIdentity(deps.site, req.tenant, tenant.index);
  const fqdn = fqdnOf(req.name, t.zone);
  const owner = await nameOwner(exec, req.tenant, req.name);
  if (owner === 'workload') return refuse('bad_request', `"${fqdn}" is a workload's name`);
  if (owner === 'device') return refuse('bad_request', `"${fqdn}" is already published for a device's address`);
  const devices = await tenantDeviceAddresses(exec, req.tenant);
  const target = classifyRecordAddress(
    t.subnet,
    req.address,
    devices.map((d) => d.address),
  );
  if (!target.ok) return refuse('bad_request', target.error);
  return { kind: 'proceed', index: tenant.index, recordKind: target.kind, registered: owner === 'record' };
}

/**
 * The claim of the name and the address, decided again under the tenant's names lock: between
 * the check and here a workload or a device may have taken the name, or the device address
 * been released (docs/decisions.md, "One tenant, one order").
 */
async function saveRecord(deps: ActivityDeps, input: RecordPutRequest & { recordKind: RecordKind }): Promise<{ kind: 'saved' } | Refusal> {
  return withLocks(deps.db, async (tx, lock) => {
    await lock(LOCK_SPACE.names, input.tenant);
    const exec = tx as unknown as Db;
    const target = await decide(deps, exec, input);
    if (target.kind === 'refused') return target;
    await saveRecordRow(exec, { tenant: input.tenant, name: input.name, address: input.address, kind: target.recordKind, actor: input.actor });
    return { kind: 'saved' as const };
  });
}

/** `<record>.<zone>` (A) and, for a subnet address, its PTR; a moved record's old PTR follows. */
async function publishRecord(deps: ActivityDeps, input: { tenant: string; index: number; name: string; address: string }): Promise<void> {
  await asBackendStep(deps.log, 'dns', { tenant: input.tenant, object: `record ${input.name}` }, () =>
    withDnsWrites(deps, async () => {
      await publishName(deps, input.tenant, input.index, input.name, input.address);
      await syncPtrs(deps, input.tenant, input.index, undefined, { own: input.name });
    }),
  );
}

async function recordView(deps: ActivityDeps, input: { tenant: string; name: string }): Promise<RecordView | undefined> {
  const row = await getRecord(deps.db, input.tenant, input.name);
  return row ? viewRecord(deps.site, row) : undefined;
}

async function beginRecordDelete(deps: ActivityDeps, req: RecordDeleteRequest): Promise<RecordDeleteStart> {
  const tenant = await getTenantRow(deps.db, req.tenant);
  if (!tenant) return refuse('not_found', 'tenant not found');
  if (!(await getRecord(deps.db, req.tenant, req.name))) return refuse('not_found', 'record not found');
  return { kind: 'proceed', index: tenant.index };
}

async function unpublishRecord(deps: ActivityDeps, input: { tenant: string; index: number; name: string }): Promise<void> {
  await asBackendStep(deps.log, 'dns', { tenant: input.tenant, object: `record ${input.name}` }, () =>
    withDnsWrites(deps, async () => {
      await unpublishName(deps, input.tenant, input.index, input.name);
      await syncPtrs(deps, input.tenant, input.index, { kind: 'record', name: input.name }, { own: input.name });
    }),
  );
}

async function forgetRecord(deps: ActivityDeps, req: RecordDeleteRequest): Promise<void> {
  await deleteRecord(deps.db, req.tenant, req.name, req.actor);
}
