import type { Hono } from 'hono';
import { ok, paramError, PveError } from './envelope.js';
import type { ProxmoxSimState, SimTask } from './state.js';

/**
 * Worker tasks (`fork_worker`): the API answers at once with the task's UPID and the work runs
 * afterwards; `GET /nodes/{node}/tasks/{upid}/status` says `running` until it ends, then
 * `stopped` with `exitstatus` "OK" or the text the worker died with.
 * UPID as PVE::Tools::upid_encode prints it: `UPID:node:PID:PSTART:STARTTIME:type:id:user:`
 * with PID, PSTART and STARTTIME as 8 upper-case hex digits; an API token's task names the
 * token (`user@realm!tokenid`) in the UPID and reports it split into `user` and `tokenid`.
 */
/** A task's work; the warnings it returns (a `warn` in the worker) end it `WARNINGS: <n>`, each logged `WARN: ...`. */
export type TaskWork = () => void | string[];
/** What a worker does when it dies (e.g. a clone unlinks its target); returns the text it dies with. */
export type TaskCleanup = (error: string) => string;

const UPID_RE = /^UPID:([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?):([0-9A-F]{8}):([0-9A-F]{8,9}):([0-9A-F]{8}):([^:\s]+):([^:\s]*):([^:\s]+):$/;

let nextPid = 0x1000 + Math.floor(Math.random() * 0x8000);

interface Pending {
  task: SimTask;
  work: TaskWork;
  cleanup?: TaskCleanup;
}

/** Runs tasks after a short delay; stalled types wait until released. */
export class TaskRunner {
  private stalled: Pending[] = [];

  constructor(private readonly state: ProxmoxSimState) {}

  start(type: string, id: string, user: string, work: TaskWork, cleanup?: TaskCleanup): string {
    return this.startOn(this.state.node, type, id, user, work, cleanup);
  }

  /** Tasks forked on `node` (the node the request named): their UPIDs name it. */
  on(node: string): { start: (type: string, id: string, user: string, work: TaskWork, cleanup?: TaskCleanup) => string } {
    return { start: (type, id, user, work, cleanup) => this.startOn(node, type, id, user, work, cleanup) };
  }

  private startOn(node: string, type: string, id: string, user: string, work: TaskWork, cleanup?: TaskCleanup): string {
    const pid = nextPid++;
    const pstart = Math.floor(process.uptime() * 100) + 1_000_000;
    const starttime = Math.floor(Date.now() / 1000);
    const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');
    const upid = `UPID:${node}:${hex(pid)}:${hex(pstart)}:${hex(starttime)}:${type}:${id}:${user}:`;
    const task: SimTask = { upid, node, pid, pstart, starttime, type, id, user, status: 'running', log: [] };
    this.state.tasks.set(upid, task);
    const t = this.state.taskTiming;
    if (t.stall.has('*') || t.stall.has(type)) this.stalled.push({ task, work, cleanup });
    else this.schedule({ task, work, cleanup });
    return upid;
  }

  /** Let stalled tasks run (after a test or the lab clears `taskTiming.stall`). */
  release(): void {
    const t = this.state.taskTiming;
    const keep: Pending[] = [];
    for (const p of this.stalled) {
      if (t.stall.has('*') || t.stall.has(p.task.type)) keep.push(p);
      else this.schedule(p);
    }
    this.stalled = keep;
  }

  private schedule(p: Pending): void {
    const t = this.state.taskTiming;
    const delay = t.durations.get(p.task.type) ?? t.minMs + Math.random() * Math.max(0, t.maxMs - t.minMs);
    setTimeout(() => this.finish(p), delay).unref?.();
  }

  private finish({ task, work, cleanup }: Pending): void {
    try {
      const dies = this.state.taskTiming.failures.get(task.type);
      if (dies !== undefined) throw new Error(dies);
      const warnings = work() ?? [];
      for (const w of warnings) task.log.push(`WARN: ${w}`);
      task.exitstatus = warnings.length > 0 ? `WARNINGS: ${warnings.length}` : 'OK';
      task.log.push(warnings.length > 0 ? `TASK WARNINGS: ${warnings.length}` : 'TASK OK');
    } catch (e) {
      // The last line of the task log, as the worker died with it.
      let msg = (e instanceof PveError || e instanceof Error ? e.message : String(e)).trim();
      if (cleanup) msg = cleanup(msg).trim();
      task.exitstatus = msg;
      task.log.push(msg, `TASK ERROR: ${msg}`);
    }
    task.status = 'stopped';
  }
}

export function decodeUpid(upid: string): { node: string; type: string; id: string; user: string } | undefined {
  const m = UPID_RE.exec(upid);
  return m ? { node: m[1]!, type: m[6]!, id: m[7]!, user: m[8]! } : undefined;
}

function statusView(task: SimTask): Record<string, unknown> {
  const bang = task.user.indexOf('!');
  const view: Record<string, unknown> = {
    upid: task.upid,
    node: task.node,
    pid: task.pid,
    pstart: task.pstart,
    starttime: task.starttime,
    type: task.type,
    id: task.id,
    user: bang < 0 ? task.user : task.user.slice(0, bang),
    status: task.status,
  };
  if (bang >= 0) view.tokenid = task.user.slice(bang + 1);
  if (task.status === 'stopped') view.exitstatus = task.exitstatus;
  return view;
}

export function mountTaskRoutes(api: Hono, state: ProxmoxSimState, checkNode: (node: string) => void): void {
  const find = (node: string, upid: string): SimTask => {
    checkNode(node);
    if (!decodeUpid(upid)) throw paramError({ upid: 'unable to parse worker upid' });
    const task = state.tasks.get(upid);
    if (!task) throw paramError({ upid: 'no such task' });
    return task;
  };

  api.get('/nodes/:node/tasks/:upid/status', (c) => ok(c, statusView(find(c.req.param('node'), c.req.param('upid')))));

  api.get('/nodes/:node/tasks/:upid/log', (c) => {
    const task = find(c.req.param('node'), c.req.param('upid'));
    return ok(
      c,
      task.log.map((t, i) => ({ n: i + 1, t })),
    );
  });
}
