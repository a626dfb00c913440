import { describe, it, expect } from 'vitest';
import { bootDiskGb, compareVersionNames, decodeSshKeys, encodeSshKeys, memoryMb, parseIpconfig, parseNet, sameKeys } from './vm-config.js';

describe('QEMU config values', () => {
  const nets = [
    {
      reason: 'model with MAC and bridge',
      v: 'virtio=02:00:00:00:27:38,bridge=tv01,firewall=1',
      want: { model: 'virtio', mac: '02:00:00:00:27:38', bridge: 'tv01' },
    },
    {
      reason: 'explicit model and macaddr keys',
      v: 'model=e1000,macaddr=BC:24:11:00:00:01,bridge=vmbr0',
      want: { model: 'e1000', mac: 'BC:24:11:00:00:01', bridge: 'vmbr0' },
    },
    { reason: 'absent', v: undefined, want: {} },
  ];
  for (const row of nets) it(`net: ${row.reason}`, () => expect(parseNet(row.v)).toEqual(row.want));

  it('ipconfig', () => expect(parseIpconfig('ip=10.128.1.10/24,gw=10.128.1.1')).toEqual({ ip: '10.128.1.10/24', gw: '10.128.1.1' }));

  const disks = [
    {
      reason: 'boot order names the disk',
      config: { boot: 'order=scsi0;ide2', scsi0: 'local-lvm:vm-1-disk-0,size=8G', ide2: 'local-lvm:vm-1-cloudinit,media=cdrom' },
      want: 8,
    },
    { reason: 'megabytes', config: { virtio0: 'local:vm-1-disk-0,size=2252M' }, want: 2252 / 1024 },
    { reason: 'bytes', config: { scsi0: 'local:vm-1-disk-0,size=10737418240' }, want: 10 },
    { reason: 'cloud-init drive is no disk', config: { ide2: 'local-lvm:vm-1-cloudinit,media=cdrom' }, want: undefined },
  ];
  for (const row of disks) it(`disk: ${row.reason}`, () => expect(bootDiskGb(row.config)).toBe(row.want));

  const mem = [
    { v: '2048', want: 2048 },
    { v: 4096, want: 4096 },
    { v: 'current=1024', want: 1024 },
    { v: undefined, want: undefined },
  ];
  for (const row of mem) it(`memory ${String(row.v)}`, () => expect(memoryMb(row.v)).toBe(row.want));
});

describe('sshkeys are URL-encoded the way PVE decodes them', () => {
  const keys = ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB+x/y= alice@example', 'ssh-rsa AAAAB3Nza== bob (work)'];
  it('encodes every reserved character, spaces and newlines included', () => {
    const enc = encodeSshKeys(keys);
    expect(enc).toMatch(/^[-%a-zA-Z0-9_.~]*$/);
    expect(enc).toContain('%0A');
    expect(enc).toContain('%28work%29');
  });
  it('round-trips', () => expect(decodeSshKeys(encodeSshKeys(keys))).toEqual(keys));
  it('compares as sets of lines', () => expect(sameKeys([`${keys[1]}\n${keys[0]}\n`], keys)).toBe(true));
  it('no keys', () => expect(decodeSshKeys(undefined)).toEqual([]));
});

describe('compareVersionNames (newest template by name)', () => {
  const rows = [
    { reason: 'numeric runs compare as numbers', a: 'tmpl-debian-12.10', b: 'tmpl-debian-12.9', want: 1 },
    { reason: 'date stamps', a: 'tmpl-2024-01-05', b: 'tmpl-2023-12-30', want: 1 },
    { reason: 'longer name with a further part is newer', a: 'tmpl-12.1', b: 'tmpl-12', want: 1 },
    { reason: 'equal', a: 'tmpl-1', b: 'tmpl-1', want: 0 },
    { reason: 'letters', a: 'tmpl-a', b: 'tmpl-b', want: -1 },
  ];
  for (const row of rows) it(row.reason, () => expect(compareVersionNames(row.a, row.b)).toBe(row.want));
});
