import type { Logger } from 'pino';

/**
 * Arms a process's stop bound when its stop begins (SIGTERM): the process is meant to end by
 * itself once it has closed everything it opened, its event loop empty. Should something still
 * hold it (a connection nothing closed), it ends anyway when `boundMs` has passed, naming the kinds
 * of what is still open, and with code 1, so an orchestrator's stop never waits for its SIGKILL
 * and the leak is seen. The timer itself keeps nothing alive.
 */
export function armStopBound(log: Logger, boundMs: number): void {
  setTimeout(() => {
    log.error({ open: process.getActiveResourcesInfo(), boundMs }, 'still running after its stop bound: exiting');
    process.exit(1);
  }, boundMs).unref();
}
