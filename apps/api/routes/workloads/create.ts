import { settle } from '../../errors.js';
import { Workload, WorkloadCreateFailure, WorkloadRequest } from '../../schemas/workload.js';
import { workloads } from './resource.js';

export const { route, register } = workloads.create({
  summary: 'Create a workload (a VM) or re-apply its sizing; an ensure',
  description:
    "Clones the site's newest template into the workload's derived VMID, sizes it, attaches it to the tenant's network " +
    'with its derived MAC and address, writes the login user and keys, starts it and publishes `<name>.<zone>` with its PTR. ' +
    'Repeating it for the same name keeps the identity and takes the new sizing.',
  body: WorkloadRequest,
  answers: { 201: ['the workload', Workload] },
  errors: [400, 401, 404, 409, 413, 501, 503],
  failed: ['the hypervisor or DNS step failed; the partial workload', WorkloadCreateFailure],
  write: async ({ ops, actor }, { t }, body) => {
    const sizing = { cores: body.cores, memoryMb: body.memory_mb, ...(body.disk_gb !== undefined ? { diskGb: body.disk_gb } : {}) };
    const created = await ops.create({ tenant: t, name: body.name, ...sizing, ...(body.ssh_keys !== undefined ? { sshKeys: body.ssh_keys } : {}), actor });
    return [201, settle(created, (failed) => (failed.workload ? { workload: failed.workload } : {})).workload] as const;
  },
});
