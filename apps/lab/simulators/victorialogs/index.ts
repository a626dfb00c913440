/**
 * The small upstream that stands in for VictoriaLogs behind the lab's real Caddy gateway. It
 * serves the ingestion and query subset of store.ts over HTTP and records the tenant headers
 * (`AccountID`, `ProjectID`) of every request it receives, and whether a token or the select
 * header got through, so tests prove what the gateway let reach the store.
 *
 * Run: `serveApp(createVictoriaLogsStandIn().app)`; the gateway dials `127.0.0.1:<port>`.
 */
import { Hono } from 'hono';
import { selectHeaderName } from '../../../../backends/caddy/routes.js';
import { victoriaLogs, type LogTenants } from './store.js';

export type { LogTenants } from './store.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  account: string | null;
  project: string | null;
  /** Any Authorization header that reached the store (the gateway must strip it). */
  authorization: string | null;
  /** Any select header that reached the store (the gateway must strip it). */
  select: string | null;
}

export function createVictoriaLogsStandIn(opts: { now?: () => Date } = {}): { app: Hono; logs: LogTenants; received: ReceivedRequest[] } {
  const app = new Hono();
  const logs: LogTenants = new Map();
  const received: ReceivedRequest[] = [];
  const store = victoriaLogs(logs, opts.now);
  app.all('*', async function handleVictoriaLogs(c) {
    const url = new URL(c.req.url);
    const headers = new Headers(c.req.raw.headers);
    received.push({
      method: c.req.method,
      path: url.pathname,
      account: headers.get('AccountID'),
      project: headers.get('ProjectID'),
      authorization: headers.get('Authorization'),
      select: headers.get(selectHeaderName),
    });
    return store({ method: c.req.method, path: url.pathname, query: url.searchParams, headers, body: new Uint8Array(await c.req.arrayBuffer()) });
  });
  return { app, logs, received };
}
