import type { Context } from 'hono';
import { died } from '../envelope.js';
import { readParams, validate, type Raw, type Schema, type Value } from '../params.js';
import { configDigest, nodeOf, type ProxmoxSimState, type SimVm } from '../state.js';
import type { TaskRunner } from '../tasks.js';

export const opt = { optional: true } as const;
export const NODE = { type: 'string' } as const;

/** What every `/nodes/{node}/qemu` handler works with: the cluster, its task runner and qemu-server's checks. */
export interface Qemu {
  state: ProxmoxSimState;
  tasks: TaskRunner;
  /** The API user tasks run as. */
  user: string;
  /** The call's parameters (body, query and path) checked against the method's schema, on a node of the cluster. */
  params(c: Context, schema: Schema): Promise<Record<string, Value>>;
  /** A node reads its own qemu-server directory: a VM on another node of the cluster is not there. */
  load(vmid: number, node: string): SimVm;
  checkLock(vm: SimVm, skiplock?: Value): void;
  touch(vm: SimVm): void;
}

export type QemuHandler = (c: Context, q: Qemu) => Response | Promise<Response>;

export function qemuContext(state: ProxmoxSimState, tasks: TaskRunner, user: string, checkNode: (n: string) => void): Qemu {
  return {
    state,
    tasks,
    user,
    async params(c, schema) {
      const raw: Raw = { ...(await readParams(c)), ...c.req.param() };
      const p = validate(raw, schema);
      checkNode(String(p.node));
      return p;
    },
    load(vmid, node) {
      const vm = state.vms.get(vmid);
      if (!vm || nodeOf(state, vm) !== node) throw died(`Configuration file 'nodes/${node}/qemu-server/${vmid}.conf' does not exist`);
      return vm;
    },
    checkLock(vm, skiplock) {
      if (vm.config.lock && !skiplock) throw died(`VM is locked (${vm.config.lock})`);
    },
    touch(vm) {
      vm.config.digest = configDigest(vm.config);
    },
  };
}

export const isTemplate = (vm: SimVm) => vm.config.template === '1';
