import type { Hono } from 'hono';
import { died, ok } from './envelope.js';
import { readParams, validate } from './params.js';
import { nodeOf, statsCache, type ProxmoxSimState } from './state.js';

/**
 * `GET /cluster/resources` (pve-manager API2/Cluster.pm, PVE/API2Tools.pm extract_vm_stats):
 * every guest of the cluster, whichever node it is on, as the cluster filesystem's vmlist knows it
 * now (a new guest is listed at once, a destroyed one is gone, a migrated one names its new
 * node), with what pvestatd last wrote of it to the RRD cache: name, status, template and sizes
 * up to one pvestatd round old (`state.stats.intervalMs`, 10 s on a real node). A guest pvestatd
 * has not seen yet is `status: "unknown"` with no name and no template flag. Only `type=vm` (and no type) is served;
 * guests are QEMU only here.
 */
export function mountClusterRoutes(api: Hono, state: ProxmoxSimState): void {
  api.get('/cluster/resources', async (c) => {
    const q = validate(await readParams(c), { type: { type: 'string', enum: ['vm', 'storage', 'node', 'sdn'], optional: true } });
    if (q.type !== undefined && q.type !== 'vm') return ok(c, []);
    const cache = statsCache(state);
    const list = [...state.vms.values()]
      .sort((a, b) => a.vmid - b.vmid)
      .map((vm) => {
        const stats = cache.get(vm.vmid);
        return { id: `qemu/${vm.vmid}`, type: 'qemu', node: nodeOf(state, vm), vmid: vm.vmid, ...(stats ?? { status: 'unknown' }) };
      });
    return ok(c, list);
  });

  // pve-storage (PVE/API2/Storage/Config.pm read, Status.pm index): a storage's section of
  // storage.cfg, `shared: 1` where set or implied by its type (nfs, cifs, rbd, cephfs, iscsi, ...),
  // absent otherwise; a node's list of the storages it can use, `shared` 0 or 1 on each.
  api.get('/storage/:storage', (c) => {
    const id = c.req.param('storage');
    const s = state.storages.get(id);
    if (!s) throw died(`storage '${id}' does not exist`);
    return ok(c, { storage: id, type: s.type, content: 'images,rootdir', ...(s.shared ? { shared: 1 } : {}), digest: 'sim' });
  });
  api.get('/nodes/:node/storage', (c) => {
    const node = c.req.param('node');
    if (!state.nodes.has(node)) throw died(`hostname lookup '${node}' failed - failed to get address info for: ${node}: Name or service not known`);
    return ok(
      c,
      [...state.storages].map(([id, s]) => ({ storage: id, type: s.type, content: 'images,rootdir', shared: s.shared ? 1 : 0, active: 1, enabled: 1 })),
    );
  });
}
