import type { Hono } from 'hono';
import type { ProxmoxSimState } from './state.js';
import type { TaskRunner } from './tasks.js';
import { cloneVm } from './qemu/clone.js';
import { postConfig, putConfig } from './qemu/config.js';
import { qemuContext, type QemuHandler } from './qemu/context.js';
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
const QEMU_ROUTES: [method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, handler: QemuHandler][] = [
  ['GET', '/cluster/nextid', nextId],
  ['GET', '/nodes/:node/qemu', listVms],
  ['GET', '/nodes/:node/qemu/:vmid/config', readConfig],
  ['PUT', '/nodes/:node/qemu/:vmid/config', putConfig],
  ['POST', '/nodes/:node/qemu/:vmid/config', postConfig],
  ['POST', '/nodes/:node/qemu/:vmid/clone', cloneVm],
  ['PUT', '/nodes/:node/qemu/:vmid/resize', resizeDisk],
  ['GET', '/nodes/:node/qemu/:vmid/status/current', currentStatus],
  ['POST', '/nodes/:node/qemu/:vmid/status/start', power('start')],
  ['POST', '/nodes/:node/qemu/:vmid/status/stop', power('stop')],
  ['POST', '/nodes/:node/qemu/:vmid/status/shutdown', power('shutdown')],
  ['DELETE', '/nodes/:node/qemu/:vmid', destroyVm],
];

export function mountQemuRoutes(api: Hono, state: ProxmoxSimState, tasks: TaskRunner, user: string, checkNode: (n: string) => void): void {
  const q = qemuContext(state, tasks, user, checkNode);
  for (const [method, path, handler] of QEMU_ROUTES) api.on(method, path, (c) => handler(c, q));
}
