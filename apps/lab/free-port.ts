import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now: any (0), or whether `port` is (it answers it, or fails). */
export function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => {
      const bound = (s.address() as { port: number }).port;
      s.close(() => resolve(bound));
    });
  });
}

/** `port` when it is free on 127.0.0.1 now, else 0 (any): a server that prefers its last port. */
export async function portOrAny(port: number | undefined): Promise<number> {
  if (!port) return 0;
  return freePort(port).then(
    () => port,
    () => 0,
  );
}
