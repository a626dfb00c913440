/**
 * A workload's `disk_gb` grows the template's disk and never shrinks it (spec: Workload). The
 * API can answer 400 with `error` before anything runs; the adapter refuses the same way.
 */
export type DiskCheck = { ok: true; diskGb: number } | { ok: false; error: string };

export function checkDisk(requestedGb: number | undefined, templateGb: number): DiskCheck {
  if (requestedGb === undefined) return { ok: true, diskGb: templateGb };
  if (!Number.isInteger(requestedGb) || requestedGb < 1) return { ok: false, error: `disk_gb must be a positive integer, got ${requestedGb}` };
  if (requestedGb < templateGb) {
    return { ok: false, error: `disk_gb ${requestedGb} is smaller than the template's disk of ${templateGb} GB; a disk can grow, never shrink` };
  }
  return { ok: true, diskGb: requestedGb };
}
