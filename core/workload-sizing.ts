import { checkDisk } from './disk-size.js';

/**
 * The sizing a create asks for, against what the workload already has (spec: Workload): a disk
 * grows and never shrinks, and SSH keys are written at first boot only, so a repeat may not
 * change them. A refusal's `error` is the 400's text. Pure (the create workflow uses it).
 */
export type SizingCheck = { ok: true; diskGb: number } | { ok: false; error: string };

/** A new workload: the disk is the template's, or larger. Fractions of a GB round up. */
export function newWorkloadDisk(requestedGb: number | undefined, templateGb: number): SizingCheck {
  const disk = checkDisk(requestedGb, templateGb);
  return disk.ok ? { ok: true, diskGb: Math.ceil(disk.diskGb) } : disk;
}

/** A repeated create: the disk keeps or grows its current size. */
export function repeatedWorkloadSizing(current: { diskGb: number; sshKeys: string[] }, requested: { diskGb?: number; sshKeys?: string[] }): SizingCheck {
  if (requested.sshKeys !== undefined && !sameKeys(current.sshKeys, requested.sshKeys)) {
    return { ok: false, error: 'ssh_keys are written at first boot only; to change them delete the workload and create it again' };
  }
  if (requested.diskGb === undefined) return { ok: true, diskGb: current.diskGb };
  if (requested.diskGb < current.diskGb) {
    return { ok: false, error: `disk_gb ${requested.diskGb} is smaller than the workload's disk of ${current.diskGb} GB; a disk can grow, never shrink` };
  }
  return { ok: true, diskGb: requested.diskGb };
}

function sameKeys(a: string[], b: string[]): boolean {
  const norm = (keys: string[]) =>
    keys
      .flatMap((k) => k.split('\n'))
      .map((k) => k.trim())
      .filter(Boolean)
      .sort();
  const x = norm(a);
  const y = norm(b);
  return x.length === y.length && x.every((k, i) => k === y[i]);
}
