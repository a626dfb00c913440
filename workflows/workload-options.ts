import type { ActivityOptions } from '@temporalio/workflow';
import { STEP_OPTIONS } from './activity-options.js';

/**
 * The workload's VM activities (ensure: clone, configure, grow, start; remove: stop, destroy).
 * A full clone of a real template runs for minutes, so these are not bound like the other steps:
 * the adapter follows each Proxmox task by its UPID and bounds it (and any wait for the VM's lock)
 * by the site's SITE_HYPERVISOR_TASK_TIMEOUT (at most 2 h). The activity heartbeats every second
 * while it waits, so a dead worker is still noticed in seconds; the start-to-close bound here is
 * only a backstop above five such tasks. A retry finds the clone it started still locked and
 * waits for it rather than failing on "VM is locked (clone)".
 */
export const WORKLOAD_VM_OPTIONS: ActivityOptions = {
  ...STEP_OPTIONS,
  startToCloseTimeout: '12h',
};
