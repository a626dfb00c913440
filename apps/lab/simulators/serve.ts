import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serve a simulator's Hono app on 127.0.0.1 (port 0 picks a free one). */
export function serveApp(app: Hono, port = 0): Promise<RunningServer> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        port: info.port,
        close: () => new Promise<void>((r) => { server.close(() => r()); (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.(); }),
      });
    });
  });
}
