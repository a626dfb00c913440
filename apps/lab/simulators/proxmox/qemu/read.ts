import { ok, paramError } from '../envelope.js';
import { configView } from '../qemu-config.js';
import { readParams, validate, VMID } from '../params.js';
import { nodeOf, vmDiskGb, type SimVm } from '../state.js';
import { isTemplate, NODE, opt, type QemuHandler } from './context.js';

/** What the list and `status/current` both say of a VM. */
function summary(vm: SimVm): Record<string, unknown> {
  const view: Record<string, unknown> = {
    vmid: vm.vmid,
    name: vm.config.name,
    status: vm.status,
    cpus: Number(vm.config.cores ?? 1) * Number(vm.config.sockets ?? 1),
    maxmem: Number(/\d+/.exec(vm.config.memory ?? '512')?.[0]) * 2 ** 20,
    maxdisk: (vmDiskGb(vm) ?? 0) * 2 ** 30,
    uptime: vm.startedAt ? Math.floor((Date.now() - vm.startedAt) / 1000) : 0,
  };
  if (isTemplate(vm)) view.template = 1;
  if (vm.config.lock) view.lock = vm.config.lock;
  return view;
}

export const nextId: QemuHandler = async (c, { state }) => {
  const q = validate(await readParams(c), { vmid: { ...VMID, optional: true } });
  if (q.vmid !== undefined) {
    if (state.vms.has(Number(q.vmid))) throw paramError({ vmid: `VM ${q.vmid} already exists` });
    return ok(c, String(q.vmid));
  }
  let id = 100;
  while (state.vms.has(id)) id++;
  return ok(c, String(id));
};

export const listVms: QemuHandler = async (c, q) => {
  const p = await q.params(c, { node: NODE, full: { type: 'boolean', ...opt } });
  const vms = [...q.state.vms.values()].filter((vm) => nodeOf(q.state, vm) === p.node).sort((a, b) => a.vmid - b.vmid);
  return ok(c, vms.map(summary));
};

export const readConfig: QemuHandler = async (c, q) => {
  const p = await q.params(c, { node: NODE, vmid: VMID, current: { type: 'boolean', ...opt }, snapshot: { type: 'string', ...opt } });
  return ok(c, configView(q.load(Number(p.vmid), String(p.node)).config));
};

export const currentStatus: QemuHandler = async (c, q) => {
  const p = await q.params(c, { node: NODE, vmid: VMID });
  const vm = q.load(Number(p.vmid), String(p.node));
  const { template, lock, ...rest } = summary(vm);
  return ok(c, {
    ...rest,
    qmpstatus: vm.status,
    ha: { managed: 0 },
    agent: vm.config.agent ? 1 : 0,
    ...(template ? { template } : {}),
    ...(lock ? { lock } : {}),
  });
};
