import type { Hono } from 'hono';
import { mountTable, type TableRow } from '../routes.js';
import type { ProxmoxSimState } from './state.js';
import type { TaskRunner } from './tasks.js';
import { cloneVm } from './qemu/clone.js';
import { postConfig, putConfig } from './qemu/config.js';
import { qemuContext, type Qemu } from './qemu/context.js';
import { destroyVm } from './qemu/destroy.js';
import { power } from './qemu/power.js';
import { currentStatus, listVms, nextId, readConfig } from './qemu/read.js';
import { resizeDisk } from './qemu/resize.js';

/**
 * `/nodes/{node}/qemu` of qemu-server (API2/Qemu.pm), PVE 8 behaviour: clone, POST config,
 * resize, start/stop/shutdown and destroy answer with a UPID and do the work in the task;
 * PUT config is synchronous. Checks the API makes before forking fail the call (500 with the
 * die text, or 400 for schema errors); checks made inside the worker fail the task instead.
 * GET config returns the configuration with pending changes applied, which is PVE's default
 * view; the simulator keeps no separate pending section.
 */
const QEMU_ROUTES: TableRow<Qemu>[] = [
  ['get', '/cluster/nextid', nextId],
  ['get', '/nodes/:node/qemu', listVms],
  ['get', '/nodes/:node/qemu/:vmid/config', readConfig],
  ['put', '/nodes/:node/qemu/:vmid/config', putConfig],
  ['post', '/nodes/:node/qemu/:vmid/config', postConfig],
  ['post', '/nodes/:node/qemu/:vmid/clone', cloneVm],
  ['put', '/nodes/:node/qemu/:vmid/resize', resizeDisk],
  ['get', '/nodes/:node/qemu/:vmid/status/current', currentStatus],
  ['post', '/nodes/:node/qemu/:vmid/status/start', power('start')],
  ['post', '/nodes/:node/qemu/:vmid/status/stop', power('stop')],
  ['post', '/nodes/:node/qemu/:vmid/status/shutdown', power('shutdown')],
  ['delete', '/nodes/:node/qemu/:vmid', destroyVm],
];

export function mountQemuRoutes(api: Hono, state: ProxmoxSimState, tasks: TaskRunner, user: string, checkNode: (n: string) => void): void {
  const q = qemuContext(state, tasks, user, checkNode);
  mountTable(api, QEMU_ROUTES, q);
}
