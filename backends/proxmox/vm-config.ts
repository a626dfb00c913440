import { pveUrlEncode } from './pve-api.js';

/**
 * Reading and writing the QEMU config values the adapter manages, in qemu-server's property
 * string formats: `net0` (`virtio=MAC,bridge=VNET`), `ipconfig0` (`ip=CIDR,gw=IP`), drive
 * `size=` options, `memory` (`[current=]MiB`) and the URL-encoded `sshkeys`.
 */
export type VmConfig = Record<string, string | number | undefined>;

const UNITS: Record<string, number> = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 };
const DISK_KEY = /^(scsi|virtio|sata|ide)\d+$/;

export function driveSizeBytes(drive: string): number | undefined {
  const m = /(?:^|,)size=(\d+(?:\.\d+)?)([KMGT])?(?:,|$)/.exec(drive);
  return m ? Math.round(Number(m[1]) * (UNITS[m[2] ?? ''] ?? 1)) : undefined;
}

/** The disk a template boots from (first of `boot: order=`, else the first disk key). */
export function bootDiskKey(config: VmConfig): string | undefined {
  const order = /order=([^,]+)/.exec(String(config.boot ?? ''))?.[1]?.split(';') ?? [];
  const disks = Object.keys(config)
    .filter((k) => DISK_KEY.test(k) && !/media=cdrom/.test(String(config[k])))
    .sort();
  return order.find((k) => disks.includes(k)) ?? disks[0];
}

export function bootDiskGb(config: VmConfig): number | undefined {
  const key = bootDiskKey(config);
  const bytes = key ? driveSizeBytes(String(config[key])) : undefined;
  return bytes === undefined ? undefined : bytes / 2 ** 30;
}

export function memoryMb(memory: unknown): number | undefined {
  const m = /^(?:current=)?(\d+)/.exec(String(memory ?? ''));
  return m ? Number(m[1]) : undefined;
}

export interface NetValue {
  model?: string;
  mac?: string;
  bridge?: string;
}

const NET_MODELS = ['e1000', 'e1000e', 'rtl8139', 'virtio', 'vmxnet3'];

export function parseNet(v: unknown): NetValue {
  const out: NetValue = {};
  for (const part of String(v ?? '').split(',')) {
    const [k = '', val] = part.split('=');
    if (NET_MODELS.includes(k)) {
      out.model = k;
      out.mac = val;
    } else if (k === 'model') out.model = val;
    else if (k === 'macaddr') out.mac = val;
    else if (k === 'bridge') out.bridge = val;
  }
  return out;
}

export function formatNet(mac: string, bridge: string): string {
  return `virtio=${mac.toUpperCase()},bridge=${bridge}`;
}

export function formatIpconfig(address: string, prefixLength: number, gateway: string): string {
  return `ip=${address}/${prefixLength},gw=${gateway}`;
}

export function parseIpconfig(v: unknown): { ip?: string; gw?: string } {
  const out: { ip?: string; gw?: string } = {};
  for (const part of String(v ?? '').split(',')) {
    const [k, val] = part.split('=');
    if (k === 'ip') out.ip = val;
    else if (k === 'gw') out.gw = val;
  }
  return out;
}

function keyLines(keys: string[]): string[] {
  return keys
    .flatMap((k) => k.split('\n'))
    .map((k) => k.trim())
    .filter(Boolean);
}

/** The `sshkeys` value PVE wants: the keys one per line, URL-encoded (uri_escape). */
export function encodeSshKeys(keys: string[]): string {
  return pveUrlEncode(keyLines(keys).join('\n'));
}

export function decodeSshKeys(v: unknown): string[] {
  if (v === undefined || v === null || v === '') return [];
  let text: string;
  try {
    text = decodeURIComponent(String(v));
  } catch {
    text = String(v);
  }
  return keyLines([text]);
}

export function sameKeys(a: string[], b: string[]): boolean {
  const x = [...keyLines(a)].sort();
  const y = [...keyLines(b)].sort();
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

/** Version order: digit runs compare as numbers, so `tmpl-12.10` sorts after `tmpl-12.9`. */
export function compareVersionNames(a: string, b: string): number {
  const parts = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d/.test(x);
    const ny = /^\d/.test(y);
    const c = nx && ny ? Number(x) - Number(y) || x.length - y.length : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return Math.sign(c);
  }
  return 0;
}
