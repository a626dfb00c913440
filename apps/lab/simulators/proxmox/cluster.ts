import type { Hono } from 'hono';
import { ok } from './envelope.js';
import { readParams, validate } from './params.js';
import { nodeOf, vmDiskGb, type ProxmoxSimState } from './state.js';

/**
 * `GET /cluster/resources` (pve-manager API2/Cluster.pm): every guest of the cluster, whichever
 * node it is on, as the cluster filesystem's vmlist knows it. Only `type=vm` (and no type) is
 * served; guests are QEMU only here.
 */
export function mountClusterRoutes(api: Hono, state: ProxmoxSimState): void {
  api.get('/cluster/resources', async (c) => {
    const q = validate(await readParams(c), { type: { type: 'string', enum: ['vm', 'storage', 'node', 'sdn'], optional: true } });
    if (q.type !== undefined && q.type !== 'vm') return ok(c, []);
    const list = [...state.vms.values()].sort((a, b) => a.vmid - b.vmid).map((vm) => {
      const item: Record<string, unknown> = {
        id: `qemu/${vm.vmid}`,
        type: 'qemu',
        node: nodeOf(state, vm),
        vmid: vm.vmid,
        status: vm.status,
        template: vm.config.template === '1' ? 1 : 0,
        maxcpu: Number(vm.config.cores ?? 1) * Number(vm.config.sockets ?? 1),
        maxmem: Number(/\d+/.exec(vm.config.memory ?? '512')?.[0]) * 2 ** 20,
        maxdisk: (vmDiskGb(vm) ?? 0) * 2 ** 30,
        uptime: vm.startedAt ? Math.floor((Date.now() - vm.startedAt) / 1000) : 0,
      };
      if (vm.config.name !== undefined) item.name = vm.config.name;
      return item;
    });
    return ok(c, list);
  });
}
