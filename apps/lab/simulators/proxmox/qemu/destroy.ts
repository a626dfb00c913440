import { died, ok } from '../envelope.js';
import { VMID } from '../params.js';
import { NODE, opt, type QemuHandler } from './context.js';

const DESTROY_SCHEMA = {
  node: NODE,
  vmid: VMID,
  purge: { type: 'boolean', ...opt },
  'destroy-unreferenced-disks': { type: 'boolean', ...opt },
  skiplock: { type: 'boolean', ...opt },
} as const;

/** A running VM is refused before the task, and again inside it (it may have started meanwhile). */
export const destroyVm: QemuHandler = async (c, q) => {
  const p = await q.params(c, DESTROY_SCHEMA);
  const vmid = Number(p.vmid);
  const node = String(p.node);
  const vm = q.load(vmid, node);
  q.checkLock(vm, p.skiplock);
  if (vm.status === 'running') throw died(`VM ${vmid} is running - destroy failed`);
  const destroy = () => {
    if (q.load(vmid, node).status === 'running') throw died(`VM ${vmid} is running - destroy failed`);
    q.state.vms.delete(vmid);
  };
  return ok(c, q.tasks.on(node).start('qmdestroy', String(vmid), q.user, destroy));
};
