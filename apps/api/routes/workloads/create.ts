import { createRoute } from '@hono/zod-openapi';
import { settle } from '../../errors.js';
import { errorResponses, TenantParam } from '../../schemas/common.js';
import { Workload, WorkloadCreateFailure, WorkloadRequest } from '../../schemas/workload.js';
import { workloadAccess } from './access.js';
import { idempotent } from '../../idempotency/contract.js';
import { answer, bearer, handle, jsonBody } from '../kit.js';

export const route = createRoute(idempotent({
  method: 'post', path: '/v1/tenants/{t}/workloads', tags: ['workloads'], ...bearer,
  summary: 'Create a workload (a VM) or re-apply its sizing; an ensure',
  description:
    "Clones the site's newest template into the workload's derived VMID, sizes it, attaches it to the tenant's network " +
    'with its derived MAC and address, writes the login user and keys, starts it and publishes `<name>.<zone>` with its PTR. ' +
    'Repeating it for the same name keeps the identity and takes the new sizing.',
  request: { params: TenantParam, body: jsonBody(WorkloadRequest) },
  responses: {
    201: answer('the workload', Workload),
    ...errorResponses(400, 401, 404, 409, 413, 501),
    502: answer('the hypervisor or DNS step failed; the partial workload', WorkloadCreateFailure),
    ...errorResponses(503),
  },
}));

export const register = handle(route, async (c, deps) => {
  const { t } = c.req.valid('param');
  const body = c.req.valid('json');
  const { ops, actor } = await workloadAccess(c, deps, t);
  const result = settle(await ops.create({
    tenant: t,
    name: body.name,
    cores: body.cores,
    memoryMb: body.memory_mb,
    ...(body.disk_gb !== undefined ? { diskGb: body.disk_gb } : {}),
    ...(body.ssh_keys !== undefined ? { sshKeys: body.ssh_keys } : {}),
    actor,
  }), (failed) => (failed.workload ? { workload: failed.workload } : {}));
  return c.json(result.workload, 201);
});
