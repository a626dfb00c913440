import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of the API that loses answers, as a dropped connection would: the request
 * reaches the API whole, and the answer's first byte closes the caller's connection. It cuts the
 * first `cuts` connections (all of them by default) whose first request `which` picks (any, by
 * default) and passes the rest. What it cut is kept, to
 * compare with what a repeat gets. Callers should send `connection: close` so the API ends each
 * upstream connection after its answer.
 */
export interface CuttingProxy {
  url: string;
  /** Everything the API answered on connections the proxy cut. */
  cut: string[];
  close(): Promise<void>;
}

export async function cuttingProxy(target: URL, cuts = Infinity, which: (requestHead: string) => boolean = () => true): Promise<CuttingProxy> {
  const cut: string[] = [];
  const sockets = new Set<Socket>();
  let done = 0;
  const server: Server = createServer((client) => {
    sockets.add(client);
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    client.on('error', () => upstream.end());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream);
    // Whether to cut is decided by the connection's first request (`which`, on its first bytes).
    client.once('data', (first: Buffer) => {
      const cutting = done < cuts && which(first.toString('latin1'));
      if (cutting) done++;
      if (!cutting) {
        upstream.pipe(client);
        return;
      }
      const got: Buffer[] = [];
      upstream.on('data', (d: Buffer) => {
        got.push(d);
        // The answer exists; the caller never sees a byte of it.
        client.destroy();
      });
      upstream.on('end', () => cut.push(Buffer.concat(got).toString()));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    cut,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
