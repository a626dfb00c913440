import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A certificate and key (PEM) to serve HTTPS with, as a real site's backend would. */
export interface ServeTls {
  cert: string;
  key: string;
}

/**
 * Serve a simulator's Hono app on 127.0.0.1 (port 0 picks a free one), over HTTPS with `tls`. A port
 * that cannot be had rejects (EADDRINUSE), rather than an unhandled 'error' event ending the process.
 */
export function serveApp(app: Hono, port = 0, tls?: ServeTls): Promise<RunningServer> {
  const scheme = tls ? 'https' : 'http';
  const secure = tls ? { createServer: createHttpsServer, serverOptions: { cert: tls.cert, key: tls.key } } : {};
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1', ...secure }, (info: AddressInfo) => {
      server.off('error', reject);
      resolve({
        url: `${scheme}://127.0.0.1:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.once('error', reject);
  });
}
