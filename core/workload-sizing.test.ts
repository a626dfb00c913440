import { describe, expect, it } from 'vitest';
import { newWorkloadDisk, repeatedWorkloadSizing } from './workload-sizing.js';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ2n4mYkqCgs7bKp0p3TnDLgH5x1ZyB3aWq0f2G8s9vX a@b';
const KEY2 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHc7m5Yq0u7aJm1tq8VbJ3oPqXcD4f2Lr9sE6wK1nT0Z c@d';

describe('the disk of a new workload', () => {
  const rows = [
    { reason: "no size: the template's", req: undefined, tpl: 8, want: { ok: true, diskGb: 8 } },
    { reason: 'a fractional template size rounds up', req: undefined, tpl: 2.2, want: { ok: true, diskGb: 3 } },
    { reason: 'the same size', req: 8, tpl: 8, want: { ok: true, diskGb: 8 } },
    { reason: 'larger grows', req: 40, tpl: 8, want: { ok: true, diskGb: 40 } },
    {
      reason: "smaller is refused, naming the template's size",
      req: 4,
      tpl: 8,
      want: { ok: false, error: "disk_gb 4 is smaller than the template's disk of 8 GB; a disk can grow, never shrink" },
    },
  ];
  for (const row of rows) it(row.reason, () => expect(newWorkloadDisk(row.req, row.tpl)).toEqual(row.want));
});

describe('a repeated create', () => {
  const current = { diskGb: 20, sshKeys: [KEY] };
  const rows = [
    { reason: 'nothing asked keeps the disk', req: {}, want: { ok: true, diskGb: 20 } },
    { reason: 'the same keys are fine', req: { sshKeys: [KEY] }, want: { ok: true, diskGb: 20 } },
    { reason: 'the same keys with other whitespace are fine', req: { sshKeys: [` ${KEY}\n`] }, want: { ok: true, diskGb: 20 } },
    { reason: 'a larger disk grows', req: { diskGb: 30 }, want: { ok: true, diskGb: 30 } },
    {
      reason: "a smaller disk is refused, naming the workload's size",
      req: { diskGb: 10 },
      want: { ok: false, error: "disk_gb 10 is smaller than the workload's disk of 20 GB; a disk can grow, never shrink" },
    },
    {
      reason: 'other keys are refused: they are written at first boot',
      req: { sshKeys: [KEY2] },
      want: { ok: false, error: 'ssh_keys are written at first boot only; to change them delete the workload and create it again' },
    },
    {
      reason: 'no keys when there were some is a change too',
      req: { sshKeys: [] },
      want: { ok: false, error: 'ssh_keys are written at first boot only; to change them delete the workload and create it again' },
    },
  ];
  for (const row of rows) it(row.reason, () => expect(repeatedWorkloadSizing(current, row.req)).toEqual(row.want));
});
