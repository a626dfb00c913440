import type { Refusal } from '../../core/refusal.js';
import { getTenantRow } from '../../db/queries/tenants.js';
import { LOCK_SPACE, withLocks } from '../../db/queries/locks.js';
import type { Db } from '../../db/registry.js';
import { nameOwner } from '../../db/queries/records.js';
import {
  deleteWorkload,
  getWorkload,
  listWorkloads,
  registerWorkload as registerWorkloadRow,
  setWorkloadStatus,
  type WorkloadRow,
} from '../../db/queries/workloads.js';
import type { WorkloadRequest } from '../../contracts/workload.js';
import type { ObjectOutcome } from '../../core/backend-outcome.js';
import { leftAlone, mayCorrect } from '../../core/object-life.js';
import { objectPath } from '../../contracts/ids.js';
import { livesOf } from '../object-lives.js';
import { lowestFreeOrdinal, ORDINALS_PER_TENANT, workloadIdentity, workloadVmid } from '../../core/workload-identity.js';
import type { VmSpec } from '../../backends/proxmox/qemu.js';
import { modeOf, type ReconcileInput, type StepInput } from '../step-input.js';
import type { ReconcileMode } from '../../core/backend-outcome.js';
import { nameIsFree, publishName, syncPtrs, tenantForPublishing, unpublishName, withDnsWrites } from '../records/index.js';
import type { ActivityDeps } from '../deps.js';
import { deriveIdentity } from '../../core/identity.js';
import { fqdnOf, LOGIN_USER, vmName } from '../../core/names/workload.js';
import { repeatedWorkloadSizing } from '../../core/workload-sizing.js';
import { asBackendStep } from '../step-failure.js';
import type { WorkloadView } from '../../core/views/workload.js';
import { viewWorkload } from '../../db/views/workload.js';

/** Everything the backend steps of one workload need, so they never read the registry. */
export interface WorkloadSpec {
  tenant: string;
  name: string;
  index: number;
  vmid: number;
  mac: string;
  address: string;
  cores: number;
  memoryMb: number;
  diskGb: number;
  sshKeys: string[];
  loginUser: string;
}

export type WorkloadPreparation =
  /** `diskGb`: settled for a registered workload; a new one's waits for the template's size. */
  { kind: 'proceed'; index: number; registered: boolean; diskGb?: number } | Refusal;

export type WorkloadRegistered = { kind: 'proceed'; spec: WorkloadSpec } | Refusal;

export type WorkloadDeleteStart = { kind: 'proceed'; spec: WorkloadSpec } | Refusal;

const refuse = (error: Refusal['error'], message: string): Refusal => ({ kind: 'refused', error, message });

function specOf(row: WorkloadRow, index: number): WorkloadSpec {
  return {
    tenant: row.tenant,
    name: row.name,
    index,
    vmid: row.vmid,
    mac: row.mac,
    address: row.address,
    cores: row.cores,
    memoryMb: row.memoryMb,
    diskGb: row.diskGb ?? 0,
    sshKeys: row.sshKeys,
    loginUser: row.loginUser,
  };
}

/**
 * The activities of workload create and delete (spec: Workload). Registry activities decide
 * identity and answer refusals; backend activities (hypervisor, dns) are ensures and removals
 * that a repeated call runs again, so it resumes where the last one stopped.
 */
export function workloadActivities(deps: ActivityDeps) {
  return {
    prepareWorkload: (req: WorkloadRequest): Promise<WorkloadPreparation> => prepareWorkload(deps, req),
    'dns.check-name': (input: { tenant: string; index: number; name: string }): Promise<boolean> => checkName(deps, input),
    'hypervisor.template-disk': (input: { tenant: string; name: string }): Promise<number> => templateDisk(deps, input),
    registerWorkload: (input: WorkloadRequest & { index: number; diskGb: number }): Promise<WorkloadRegistered> => registerWorkload(deps, input),
    'hypervisor.ensure-vm': (spec: WorkloadSpec): Promise<ObjectOutcome[]> => ensureVm(deps, spec),
    'hypervisor.reconcile-workloads': async (input: ReconcileInput): Promise<ObjectOutcome[]> => reconcileWorkloads(deps, input, modeOf(input)),
    /** What `hypervisor.reconcile-workloads` would do, from the same reads: nothing is written. */
    'hypervisor.plan-workloads': async (input: StepInput): Promise<ObjectOutcome[]> => reconcileWorkloads(deps, input, 'plan'),
    'dns.publish-workload': (spec: WorkloadSpec): Promise<ObjectOutcome[]> => publishWorkload(deps, spec),
    finishWorkload: (input: { tenant: string; name: string }): Promise<WorkloadView | undefined> => finishWorkload(deps, input),
    workloadView: async (input: { tenant: string; name: string }): Promise<WorkloadView | undefined> => view(deps, input.tenant, input.name),
    beginWorkloadDelete: (input: { tenant: string; name: string }): Promise<WorkloadDeleteStart> => beginWorkloadDelete(deps, input),
    'hypervisor.remove-vm': (spec: WorkloadSpec): Promise<void> => removeVm(deps, spec),
    'dns.unpublish-workload': (spec: WorkloadSpec): Promise<void> => unpublishWorkload(deps, spec),
    forgetWorkload: (input: { tenant: string; name: string; actor: string }): Promise<void> => forgetWorkload(deps, input),
  };
}

const zoneOf = (deps: ActivityDeps, tenant: string, index: number) => deriveIdentity(deps.site, tenant, index).zone;

/** The VM the hypervisor must hold for a workload. */
function vmSpecOf(deps: ActivityDeps, spec: WorkloadSpec): VmSpec {
  const t = deriveIdentity(deps.site, spec.tenant, spec.index);
  return {
    vmid: spec.vmid,
    name: vmName(spec.tenant, spec.name),
    cores: spec.cores,
    memoryMb: spec.memoryMb,
    diskGb: spec.diskGb,
    mac: spec.mac,
    bridge: t.vnet,
    address: spec.address,
    prefixLength: t.prefixLength,
    gateway: t.gateway,
    ciuser: spec.loginUser,
    sshKeys: spec.sshKeys,
  };
}

/**
 * A tenant's reconcile of its workloads: the VM of every settled workload as the registry holds
 * it (cores, memory, disk never shrunk, MAC, network, login keys, running), from one list of the
 * cluster's guests. A workload a run holds (its create in flight or parked after a failed step)
 * is reported `in-flight` with its run, one the registry holds unfinished with no run `unfinished`:
 * neither VM is touched. A VM in the tenant's VMID range that no row and no run claims is
 * `unknown`, destroyed only when the operator asks (`prune`).
 */
function reconcileWorkloads(deps: ActivityDeps, input: StepInput, mode: ReconcileMode): Promise<ObjectOutcome[]> {
  const { db, site, ports, log } = deps;
  return asBackendStep(log, 'hypervisor', { tenant: input.name, object: 'workloads' }, async () => {
    const first = workloadVmid(site.vmidBase, input.index, 0);
    const names = new Map<string, string>();
    const left: ObjectOutcome[] = [];
    const outcomes = await ports.hypervisor.reconcile({ first, last: first + ORDINALS_PER_TENANT - 1 }, mode, async () => {
      const lives = await livesOf(deps, input.name);
      const rows = await listWorkloads(db, input.name);
      const correct: VmSpec[] = [];
      for (const row of rows) {
        const life = lives(objectPath.workload(input.name, row.name), { registered: true, finished: row.status === 'ready' });
        names.set(`vm ${row.vmid}`, row.name);
        if (mayCorrect(life)) correct.push(vmSpecOf(deps, specOf(row, input.index)));
        else left.push(leftAlone(`workload ${row.name} (vm ${row.vmid})`, life)!);
      }
      return { correct, claimed: new Set(rows.map((r) => r.vmid)) };
    });
    const named = outcomes.map((o) => (names.has(o.object) ? { ...o, object: `workload ${names.get(o.object)} (${o.object})` } : o));
    return [...named, ...left];
  });
}

async function view(deps: ActivityDeps, tenant: string, name: string): Promise<WorkloadView | undefined> {
  const row = await getWorkload(deps.db, tenant, name);
  return row ? viewWorkload(deps.site, row) : undefined;
}

async function prepareWorkload(deps: ActivityDeps, req: WorkloadRequest): Promise<WorkloadPreparation> {
  const { db } = deps;
  const tenant = await tenantForPublishing(deps, req.tenant);
  if ('kind' in tenant) return tenant;
  const row = await getWorkload(db, req.tenant, req.name);
  const fqdn = fqdnOf(req.name, zoneOf(deps, req.tenant, tenant.index));
  if (!row) {
    const owner = await nameOwner(db, req.tenant, req.name);
    if (owner === 'record') return refuse('bad_request', `"${fqdn}" is already published as a record; delete the record or choose another name`);
    if (owner === 'device') return refuse('bad_request', `"${fqdn}" is already published for a device's address; choose another name`);
    return { kind: 'proceed', index: tenant.index, registered: false };
  }
  if (row.status === 'deleting') return refuse('conflict', 'the workload is being deleted; repeat the delete first');
  const sizing = repeatedWorkloadSizing({ diskGb: row.diskGb ?? 0, sshKeys: row.sshKeys }, req);
  if (!sizing.ok) return refuse('bad_request', sizing.error);
  return { kind: 'proceed', index: tenant.index, registered: true, diskGb: sizing.diskGb };
}

/** Whether the tenant already published the name itself (with its update key): a new workload's or record's name. */
async function checkName(deps: ActivityDeps, input: { tenant: string; index: number; name: string }): Promise<boolean> {
  return asBackendStep(deps.log, 'dns', { tenant: input.tenant, object: `name ${input.name}` }, () => nameIsFree(deps, input.tenant, input.index, input.name));
}

/** The disk size of the template a new workload is cloned from. */
async function templateDisk(deps: ActivityDeps, input: { tenant: string; name: string }): Promise<number> {
  return asBackendStep(
    deps.log,
    'hypervisor',
    { tenant: input.tenant, object: `workload ${input.name}` },
    async () => (await deps.ports.hypervisor.newestTemplate()).diskGb,
  );
}

/**
 * The claim of the name, decided again under the tenant's names lock: between the check and
 * here a record or a device address may have taken it, or a delete begun (docs/decisions.md,
 * "One tenant, one order").
 */
async function registerWorkload(deps: ActivityDeps, input: WorkloadRequest & { index: number; diskGb: number }): Promise<WorkloadRegistered> {
  const { db, site } = deps;
  const t = deriveIdentity(site, input.tenant, input.index);
  return withLocks(db, async (tx, lock) => {
    await lock(LOCK_SPACE.names, input.tenant);
    const exec = tx as unknown as Db;
    const tenant = await tenantForPublishing({ ...deps, db: exec }, input.tenant);
    if ('kind' in tenant) return tenant;
    const owner = await nameOwner(exec, input.tenant, input.name);
    if (owner === 'record')
      return refuse('bad_request', `"${fqdnOf(input.name, t.zone)}" is already published as a record; delete the record or choose another name`);
    if (owner === 'device') return refuse('bad_request', `"${fqdnOf(input.name, t.zone)}" is already published for a device's address; choose another name`);
    const reg = await registerWorkloadRow(exec, {
      tenant: input.tenant,
      name: input.name,
      cores: input.cores,
      memoryMb: input.memoryMb,
      diskGb: input.diskGb,
      sshKeys: input.sshKeys ?? [],
      loginUser: LOGIN_USER,
      identity: (ordinal) => workloadIdentity(site.vmidBase, { index: input.index, subnet: t.subnet }, ordinal),
      chooseOrdinal: lowestFreeOrdinal,
      actor: input.actor,
    });
    if (reg.kind === 'full') return refuse('conflict', 'no free workload ordinal: the tenant has 40 workloads; delete one first');
    return { kind: 'proceed', spec: specOf(reg.row, input.index) } as const;
  });
}

/** Clone, size, attach, write cloud-init and start: one ensure of the VM. */
async function ensureVm(deps: ActivityDeps, spec: WorkloadSpec): Promise<ObjectOutcome[]> {
  return asBackendStep(deps.log, 'hypervisor', { tenant: spec.tenant, object: `workload ${spec.name}` }, () =>
    deps.ports.hypervisor.ensure(vmSpecOf(deps, spec)),
  );
}

/** `<name>.<zone>` and its PTR. */
async function publishWorkload(deps: ActivityDeps, spec: WorkloadSpec): Promise<ObjectOutcome[]> {
  return asBackendStep(deps.log, 'dns', { tenant: spec.tenant, object: `workload ${spec.name}` }, () =>
    withDnsWrites(deps, async () => [
      await publishName(deps, spec.tenant, spec.index, spec.name, spec.address),
      ...(await syncPtrs(deps, spec.tenant, spec.index, undefined, { own: spec.name })),
    ]),
  );
}

async function finishWorkload(deps: ActivityDeps, input: { tenant: string; name: string }): Promise<WorkloadView | undefined> {
  await setWorkloadStatus(deps.db, input.tenant, input.name, 'ready', 'provisioning');
  return view(deps, input.tenant, input.name);
}

async function beginWorkloadDelete(deps: ActivityDeps, input: { tenant: string; name: string }): Promise<WorkloadDeleteStart> {
  const tenant = await getTenantRow(deps.db, input.tenant);
  if (!tenant) return refuse('not_found', 'tenant not found');
  const row = await setWorkloadStatus(deps.db, input.tenant, input.name, 'deleting');
  if (!row) return refuse('not_found', 'workload not found');
  return { kind: 'proceed', spec: specOf(row, tenant.index) };
}

/** Stop, then destroy; a VM already gone is fine. */
async function removeVm(deps: ActivityDeps, spec: WorkloadSpec): Promise<void> {
  await asBackendStep(deps.log, 'hypervisor', { tenant: spec.tenant, object: `workload ${spec.name}` }, () => deps.ports.hypervisor.remove(spec.vmid));
}

async function unpublishWorkload(deps: ActivityDeps, spec: WorkloadSpec): Promise<void> {
  await asBackendStep(deps.log, 'dns', { tenant: spec.tenant, object: `workload ${spec.name}` }, () =>
    withDnsWrites(deps, async () => {
      await unpublishName(deps, spec.tenant, spec.index, spec.name);
      await syncPtrs(deps, spec.tenant, spec.index, { kind: 'workload', name: spec.name }, { own: spec.name });
    }),
  );
}

async function forgetWorkload(deps: ActivityDeps, input: { tenant: string; name: string; actor: string }): Promise<void> {
  await deleteWorkload(deps.db, input.tenant, input.name, input.actor);
}
