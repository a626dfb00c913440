/**
 * The metrics listener: `GET /metrics` in the Prometheus text format, on an address of its own
 * (METRICS_ADDRESS, WORKER_METRICS_ADDRESS), never the public API port. Anything else is 404.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { ListenAddress } from '../config/env.js';

export interface RunningMetrics {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * `extra` adds another exposition appended as it is: the Temporal Core runtime's own exporter,
 * whose metric names (temporal_*) never meet ours (provisioning_*, process_*, nodejs_*, http_*).
 */
export function serveMetrics(registry: Registry, at: ListenAddress, extra?: () => Promise<string>): Promise<RunningMetrics> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    void Promise.all([registry.metrics(), extra ? extra().catch(() => '') : Promise.resolve('')]).then(
      ([own, more]) => {
        res.writeHead(200, { 'Content-Type': registry.contentType }).end(more ? `${own.trimEnd()}\n${more}` : own);
      },
      (err: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`metrics unavailable: ${(err as Error).name}\n`);
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      const host = at.host && at.host !== '0.0.0.0' && at.host !== '::' ? at.host : '127.0.0.1';
      resolve({
        url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
        port,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}
