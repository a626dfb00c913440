import type { Context } from 'hono';
import { died, ok, paramError } from '../envelope.js';
import { CONFIG_CONTROL, CONFIG_SCHEMA, checkSshKeys, parseNet, printNet } from '../qemu-config.js';
import { splitList, type Value } from '../params.js';
import { opt, type Qemu, type QemuHandler } from './context.js';

/** update_vm_api: schema, then the sshkeys check, then the change (PUT synchronous, POST in a worker). */
async function updateConfig(c: Context, q: Qemu, background: boolean): Promise<Response> {
  const schema = background ? { ...CONFIG_SCHEMA, background_delay: { type: 'integer', min: 1, max: 30, ...opt } as const } : CONFIG_SCHEMA;
  const p = await q.params(c, schema);
  const vmid = Number(p.vmid);
  const node = String(p.node);
  if (p.sshkeys !== undefined) await checkSshKeys(String(p.sshkeys));
  const change = () => applyChange(q, q.load(vmid, node), p);
  if (!background) {
    change();
    return ok(c, null);
  }
  return ok(c, q.tasks.on(node).start('qmconfig', String(vmid), q.user, change));
}

function applyChange(q: Qemu, vm: ReturnType<Qemu['load']>, p: Record<string, Value>): void {
  q.checkLock(vm, p.skiplock);
  if (p.digest !== undefined && p.digest !== vm.config.digest) {
    throw died('detected modified configuration - file changed by other user? Try again.');
  }
  for (const k of splitList(p.delete)) {
    if (k === 'template') throw paramError({ delete: "unable to delete 'template'" });
    delete vm.config[k];
  }
  for (const [k, v] of Object.entries(p)) {
    if (CONFIG_CONTROL.includes(k)) continue;
    if (/^net\d+$/.test(k)) {
      const net = parseNet(String(v));
      if (typeof net !== 'string') vm.config[k] = printNet(net);
      continue;
    }
    vm.config[k] = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
  }
  q.touch(vm);
}

export const putConfig: QemuHandler = (c, q) => updateConfig(c, q, false);
export const postConfig: QemuHandler = (c, q) => updateConfig(c, q, true);
