import { AsyncLocalStorage } from 'node:async_hooks';
import { Pacer } from './pace.js';
import type { BackendCallObserver } from './telemetry.js';

/**
 * What one worker's backend calls share: their pace (SITE_BACKEND_CALLS_PER_SECOND, a token
 * bucket per backend: pace.ts) and who observes them (the worker's metrics: telemetry.ts). Made
 * where the worker binds its ports (`bindPorts`, activities/backend-areas.ts) and handed to every
 * client it makes there (`BackendHttp`'s options, through each adapter's `calls`), never kept in a
 * module: two workers in one process (the tests start several) pace and count apart. A client made
 * without one (a `--check-backends` probe, a test) is neither paced nor observed.
 */
export interface BackendCalls {
  /**
   * Waits for this backend's next slot (at once when the site sets no bound), then throws if the
   * work the call belongs to may no longer call its backends (`admit`): every call passes here.
   */
  paced(backend: string): Promise<void>;
  /** Told of every call's result and duration; none when the worker's metrics are off. */
  observe?: BackendCallObserver;
}

const forMany = new AsyncLocalStorage<true>();

/**
 * Runs work done on behalf of several callers (a group commit's round, a fabric batch's lock, an
 * apply carrying other tenants' edits): no one caller's `admit` stops it midway, or one cancelled
 * attempt would fail the others' changes and leave held a lock it took. A caller's own calls inside
 * it, run back in that caller's async context (`AsyncResource.bind`), are admitted as ever.
 */
export function onBehalfOfMany<T>(work: () => Promise<T>): Promise<T> {
  return forMany.run(true, work);
}

export function backendCalls(opts: {
  perSecond: number;
  observe?: BackendCallObserver;
  /**
   * Throws when the caller's work is over (the worker's: an attempt Temporal gave up on, whose code
   * runs on). Checked after the pace's wait, the last moment before the call leaves; it may wait
   * (an attempt that stalled asks Temporal first).
   */
  admit?: () => void | Promise<void>;
}): BackendCalls {
  const pacers = new Map<string, Pacer>();
  return {
    observe: opts.observe,
    async paced(backend) {
      if (opts.perSecond > 0) {
        let pacer = pacers.get(backend);
        if (!pacer) pacers.set(backend, (pacer = new Pacer(opts.perSecond)));
        const ms = pacer.reserve();
        if (ms > 0) await new Promise((r) => setTimeout(r, ms));
      }
      if (!forMany.getStore()) await opts.admit?.();
    },
  };
}
