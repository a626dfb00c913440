import { died, ok } from '../envelope.js';
import { VMID, type Schema } from '../params.js';
import type { ProxmoxSimState, SimVm } from '../state.js';
import { isTemplate, NODE, opt, type QemuHandler } from './context.js';

type PowerAction = 'start' | 'stop' | 'shutdown';

const TASK_TYPE: Record<PowerAction, string> = { start: 'qmstart', stop: 'qmstop', shutdown: 'qmshutdown' };

const POWER_SCHEMA: Record<PowerAction, Schema> = {
  start: { timeout: { type: 'integer', min: 0, ...opt }, skiplock: { type: 'boolean', ...opt }, machine: { type: 'string', ...opt } },
  stop: {
    timeout: { type: 'integer', min: 0, ...opt },
    skiplock: { type: 'boolean', ...opt },
    keepActive: { type: 'boolean', ...opt },
    'overrule-shutdown': { type: 'boolean', ...opt },
  },
  shutdown: {
    timeout: { type: 'integer', min: 0, ...opt },
    skiplock: { type: 'boolean', ...opt },
    keepActive: { type: 'boolean', ...opt },
    forceStop: { type: 'boolean', ...opt },
  },
};

function bridgeExists(state: ProxmoxSimState, bridge: string, node: string): boolean {
  if (state.bridges.has(bridge)) return true;
  // An SDN VNet is a bridge on a node once that node's network reload has run (sdn.ts).
  const local = state.sdn.applied.get(node);
  const vnet = local?.vnets.get(bridge);
  if (!vnet) return false;
  const zone = local?.zones.get(String(vnet.zone));
  return !!zone && (zone.nodes === undefined || String(zone.nodes).split(',').includes(node));
}

function start(state: ProxmoxSimState, vm: SimVm, node: string): void {
  if (isTemplate(vm)) throw died("you can't start a vm if it's a template");
  if (vm.status === 'running') throw died(`VM ${vm.vmid} already running`);
  for (const [k, v] of Object.entries(vm.config)) {
    if (!/^net\d+$/.test(k)) continue;
    const bridge = /(?:^|,)bridge=([^,]+)/.exec(v)?.[1];
    if (bridge && !bridgeExists(state, bridge, node)) throw died(`bridge '${bridge}' does not exist`);
  }
  vm.status = 'running';
  vm.startedAt = Date.now();
}

/** `status/start`, `status/stop`, `status/shutdown`: the VM must exist before the task; the rest is the task's. */
export const power =
  (action: PowerAction): QemuHandler =>
  async (c, q) => {
    const p = await q.params(c, { node: NODE, vmid: VMID, ...POWER_SCHEMA[action] });
    const vmid = Number(p.vmid);
    const node = String(p.node);
    q.load(vmid, node);
    const work = () => {
      const vm = q.load(vmid, node);
      q.checkLock(vm, p.skiplock);
      if (action === 'start') return start(q.state, vm, node);
      if (action === 'shutdown' && vm.status !== 'running') throw died(`VM ${vmid} not running`);
      vm.status = 'stopped';
      delete vm.startedAt;
    };
    return ok(c, q.tasks.on(node).start(TASK_TYPE[action], String(vmid), q.user, work));
  };
