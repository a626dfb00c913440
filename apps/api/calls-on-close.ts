import type { Connection } from '@temporalio/client';

/**
 * The API's calls, each with its own abort signal for its Temporal requests, all aborted when the
 * API closes, before its channel does: a request still in flight at the close was retried by the
 * client on the closed channel, and that retry threw outside any call (grpc-js "Channel has been
 * shut down"), ending the process mid-stop. One signal per call, not one for the process: the
 * client adds a listener to the signal for every request and never removes it.
 */
export function callsAbortedOnClose<A extends unknown[], R>(
  connection: Pick<Connection, 'withAbortSignal'>,
  call: (...args: A) => R | Promise<R>,
): { call: (...args: A) => Promise<R>; abortAll(): void; open(): number } {
  const open = new Set<AbortController>();
  return {
    call: async (...args) => {
      const own = new AbortController();
      open.add(own);
      try {
        return await connection.withAbortSignal(own.signal, async () => call(...args));
      } finally {
        open.delete(own);
      }
    },
    abortAll: () => {
      for (const own of open) own.abort();
    },
    open: () => open.size,
  };
}
