import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a backend (or the registry's database) that can be made to hang or to go
 * down. Hanging is what a wedged process or a firewall dropping packets looks like: it still accepts
 * connections and reads what callers send, but forwards nothing and answers nothing, on new
 * connections and on the ones already open (a kept-alive HTTP connection, the MQTT session). When
 * the hang ends, the connections it held are closed (as the backend's restart would) and new ones
 * pass through again. Down is a restart seen from outside: connections reset, new ones refused.
 */
export interface HangingProxy {
  /** `host:port` of the proxy, to put where the backend's address was. */
  hostPort: string;
  /** Where it forwards; set once the backend's port is known (a connection before then is closed). */
  target?: { host: string; port: number };
  /** Connections accepted while hanging (each got no byte back). */
  readonly held: number;
  /** Bytes callers sent that the hang swallowed: more than 0 shows the calls met the hang. */
  readonly swallowed: number;
  /**
   * Each answer of the backend reaches its caller this much later (0: at once): a slow link, so a
   * test can act between something happening at the backend and the caller learning of it.
   */
  answerDelayMs: number;
  setHang(on: boolean): void;
  /**
   * Down, as a restarted server is to its clients: every open connection is reset, and new ones are
   * refused (closed at once) until it is up again.
   */
  setDown(on: boolean): void;
  close(): Promise<void>;
}

export async function hangingProxy(): Promise<HangingProxy> {
  let hang = false;
  let down = false;
  let held = 0;
  let swallowed = 0;
  const pairs = new Set<{ client: Socket; upstream?: Socket }>();
  const server: Server = createServer((client) => {
    if (down) return void client.resetAndDestroy();
    const pair: { client: Socket; upstream?: Socket } = { client };
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    client.on('error', () => pair.upstream?.destroy());
    if (hang) {
      held++;
      client.on('data', (d: Buffer) => void (swallowed += d.length));
      return;
    }
    const target = proxy.target;
    if (!target) return void client.destroy();
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    // Bytes cross only while not hanging: a hang in the middle of a session swallows them.
    client.on('data', (d: Buffer) => void (hang ? (swallowed += d.length) : upstream.write(d)));
    upstream.on('data', (d: Buffer) => {
      if (hang) return;
      // In order: every chunk waits the same delay, and timers of one delay fire in order.
      if (proxy.answerDelayMs > 0) setTimeout(() => void (client.destroyed || hang || client.write(d)), proxy.answerDelayMs);
      else client.write(d);
    });
    client.on('end', () => upstream.end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const proxy: HangingProxy = {
    hostPort: `127.0.0.1:${port}`,
    answerDelayMs: 0,
    get held() {
      return held;
    },
    get swallowed() {
      return swallowed;
    },
    setHang(on: boolean) {
      if (hang && !on) {
        for (const p of pairs) {
          p.client.destroy();
          p.upstream?.destroy();
        }
        pairs.clear();
      }
      hang = on;
    },
    setDown(on: boolean) {
      down = on;
      if (!on) return;
      for (const p of pairs) {
        p.client.resetAndDestroy();
        p.upstream?.destroy();
      }
      pairs.clear();
    },
    close: () => {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream?.destroy();
      }
      return new Promise((r) => server.close(() => r()));
    },
  };
  return proxy;
}
