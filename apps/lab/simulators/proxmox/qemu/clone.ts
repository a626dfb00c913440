import { randomUUID } from 'node:crypto';
import { died, ok } from '../envelope.js';
import { parseNet, printNet } from '../qemu-config.js';
import { dnsNameFormat, VMID, type Value } from '../params.js';
import { bootDisk, DISK_KEY, randomMac, type ProxmoxSimState, type SimVm } from '../state.js';
import { isTemplate, NODE, opt, type Qemu, type QemuHandler } from './context.js';

const CLONE_SCHEMA = {
  node: NODE,
  vmid: VMID,
  newid: VMID,
  name: { type: 'string', format: dnsNameFormat, ...opt },
  description: { type: 'string', ...opt },
  full: { type: 'boolean', ...opt },
  storage: { type: 'string', pattern: /[a-z][a-z0-9\-_.]*[a-z0-9]/i, ...opt },
  target: { type: 'string', ...opt },
  format: { type: 'string', enum: ['raw', 'qcow2', 'vmdk'], ...opt },
  pool: { type: 'string', ...opt },
  snapname: { type: 'string', ...opt },
  bwlimit: { type: 'integer', min: 0, ...opt },
} as const;

/** qemu-server's checks before it forks the clone worker: each fails the call itself. */
function checkClone(q: Qemu, src: SimVm, p: Record<string, Value>): { full: boolean; storage?: string } {
  const { state } = q;
  // A target that is the node the call runs on is no target.
  const target = p.target === undefined || String(p.target) === String(p.node) ? undefined : String(p.target);
  if (target !== undefined && !state.nodes.has(target)) throw died(`no such cluster node '${target}'`);
  const newid = Number(p.newid);
  if (state.vms.has(newid)) throw died(`unable to create VM ${newid}: config file already exists`);
  q.checkLock(src);
  if (p.snapname !== undefined) throw died(`snapshot '${p.snapname}' does not exist`);
  const full = p.full === undefined ? !isTemplate(src) : Boolean(p.full);
  if (p.storage !== undefined && !full) throw died("parameter 'storage' not allowed for linked clones");
  if (p.format !== undefined && !full) throw died("parameter 'format' not allowed for linked clones");
  if (!full && !isTemplate(src)) throw died(`Linked clone feature is not supported for drive '${bootDisk(src.config) ?? 'scsi0'}'`);
  const storage = p.storage === undefined ? undefined : String(p.storage);
  if (storage !== undefined && !state.storages.has(storage)) throw died(`storage '${storage}' does not exist`);
  // check_storage_access_clone: the VM is "shared" only when every volume it has (disks, and
  // CD-ROMs other than `none`/`cdrom`, the cloud-init drive among them) is on shared storage;
  // a clone to another node of a VM that is not, is refused before any task.
  if (target !== undefined && !sharedVm(state, src)) throw died(`can't clone VM to node '${target}' (VM uses local storage)`);
  return { full, ...(storage !== undefined ? { storage } : {}) };
}

function sharedVm(state: ProxmoxSimState, vm: SimVm): boolean {
  return Object.entries(vm.config).every(([k, v]) => {
    if (!DISK_KEY.test(k) && !/^(efidisk|tpmstate)\d+$/.test(k)) return true;
    const vol = v.split(',')[0] ?? '';
    if (vol === 'none' || vol === 'cdrom' || !vol.includes(':')) return true;
    return state.storages.get(vol.split(':')[0]!)?.shared === true;
  });
}

/** The clone's configuration: new MACs, its own disks (or linked to the template's), a new identity. */
function cloneConfig(
  state: ProxmoxSimState,
  src: SimVm,
  newid: number,
  p: Record<string, Value>,
  how: { full: boolean; storage?: string },
): Record<string, string> {
  const config: Record<string, string> = {};
  let diskNo = 0;
  for (const [k, v] of Object.entries(src.config)) {
    if (['template', 'lock', 'digest', 'name', 'smbios1', 'vmgenid'].includes(k)) continue;
    if (/^net\d+$/.test(k)) {
      const net = parseNet(v);
      config[k] = typeof net === 'string' ? v : printNet({ ...net, macaddr: randomMac() });
    } else if (DISK_KEY.test(k) && /media=cdrom/.test(v) && /cloudinit/.test(v)) {
      config[k] = `${how.storage ?? state.storage}:vm-${newid}-cloudinit,media=cdrom`;
    } else if (DISK_KEY.test(k) && !/media=cdrom/.test(v)) {
      const [vol = '', ...opts] = v.split(',');
      const [srcStore = state.storage, volName = ''] = vol.split(':');
      const newVol = how.full ? `${how.storage ?? srcStore}:vm-${newid}-disk-${diskNo++}` : `${srcStore}:${volName}/vm-${newid}-disk-${diskNo++}`;
      config[k] = [newVol, ...opts].join(',');
    } else config[k] = v;
  }
  config.name = p.name === undefined ? `Copy-of-VM-${src.config.name ?? src.vmid}` : String(p.name);
  if (p.description !== undefined) config.description = String(p.description);
  config.smbios1 = `uuid=${randomUUID()}`;
  config.vmgenid = randomUUID();
  return config;
}

export const cloneVm: QemuHandler = async (c, q) => {
  const p = await q.params(c, CLONE_SCHEMA);
  const src = q.load(Number(p.vmid), String(p.node));
  const newid = Number(p.newid);
  const config = cloneConfig(q.state, src, newid, p, checkClone(q, src, p));
  // Until the worker has copied the disks the target's config file is qemu-server's temporary
  // one, `lock: clone` and nothing else: every change and start is refused with "VM is locked
  // (clone)". A failed clone unlinks it and dies "clone failed: ...".
  const vm: SimVm = { vmid: newid, node: String(p.target ?? p.node), config: { lock: 'clone' }, status: 'stopped' };
  q.touch(vm);
  q.state.vms.set(newid, vm);
  const copyDisks = () => {
    const target = q.state.vms.get(newid);
    if (!target) throw new Error(`clone failed: VM ${newid} vanished`);
    target.config = config;
    q.touch(target);
  };
  const unlink = (error: string) => {
    q.state.vms.delete(newid);
    return `clone failed: ${error}`;
  };
  return ok(c, q.tasks.on(String(p.node)).start('qmclone', String(src.vmid), q.user, copyDisks, unlink));
};
