import { died, ok } from '../envelope.js';
import { VMID } from '../params.js';
import { driveSizeBytes, formatSize } from '../state.js';
import { NODE, opt, type QemuHandler } from './context.js';

const RESIZE_SCHEMA = {
  node: NODE,
  vmid: VMID,
  disk: { type: 'string', pattern: /(ide[0-3]|sata[0-5]|scsi([0-9]|[12][0-9]|30)|virtio([0-9]|1[0-5])|efidisk0|tpmstate0)/ },
  size: { type: 'string', pattern: /\+?\d+(\.\d+)?[KMGT]?/ },
  digest: { type: 'string', ...opt },
  skiplock: { type: 'boolean', ...opt },
} as const;

/** The size a `size` parameter asks for: absolute, or `+` relative to the current one. */
function requestedBytes(size: string, current: number): number {
  const m = /^(\+)?(\d+(?:\.\d+)?)([KMGT])?$/.exec(size)!;
  const unit = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 }[m[3] as 'K'] ?? 1;
  return Math.floor(Number(m[2]) * unit + (m[1] ? current : 0));
}

export const resizeDisk: QemuHandler = async (c, q) => {
  const p = await q.params(c, RESIZE_SCHEMA);
  const vmid = Number(p.vmid);
  const node = String(p.node);
  const disk = String(p.disk);
  const resize = () => {
    const vm = q.load(vmid, node);
    if (p.digest !== undefined && p.digest !== vm.config.digest) throw died('checksum mismatch (file change by other user?)');
    q.checkLock(vm, p.skiplock);
    const drive = vm.config[disk];
    if (!drive) throw died(`disk '${disk}' does not exist`);
    if (/media=cdrom/.test(drive)) throw died("you can't resize a cdrom");
    const size = driveSizeBytes(drive) ?? 0;
    const newsize = requestedBytes(String(p.size), size);
    if (newsize < size) throw died('shrinking disks is not supported');
    if (newsize === size) return;
    vm.config[disk] = /(^|,)size=[^,]*/.test(drive)
      ? drive.replace(/(^|,)size=[^,]*/, `$1size=${formatSize(newsize)}`)
      : `${drive},size=${formatSize(newsize)}`;
    q.touch(vm);
  };
  return ok(c, q.tasks.on(node).start('resize', String(vmid), q.user, resize));
};
