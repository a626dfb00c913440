import type { Logger } from 'pino';

/**
 * A worker's background duty run in rounds (the log route keeper, the event relay): a round every
 * `intervalMs` after the last one ended, never two at once; a failed round (a backend, the
 * registry or Temporal away) is logged and the next one tries again. The timer does not keep the
 * process alive: the worker's own work does. `stop` waits for a round in progress.
 */
export function everyInterval(what: string, intervalMs: number, log: Logger, round: (turn: number) => Promise<unknown>): { stop(): Promise<void> } {
  let stopped = false;
  let turn = 0;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round(turn++).then(
        () => schedule(),
        (err: unknown) => {
          log.warn({ err: (err as Error).message }, `${what}: round failed; trying again next round`);
          schedule();
        },
      );
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
