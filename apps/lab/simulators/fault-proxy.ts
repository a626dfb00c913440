import { request } from 'node:http';
import { Hono } from 'hono';
import { withFaults, type Faults } from './faults.js';

/**
 * A pass-through HTTP proxy with the simulators' fault controls, put in front of the real servers
 * of the lab (PowerDNS, Recursor) so tests can make their API fail or stall like a simulator's.
 */
export function createFaultProxy(target: string): { app: Hono; faults: Faults } {
  const app = new Hono();
  const faults = withFaults(app);
  const base = new URL(target);
  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    const upstream = new URL(url.pathname + url.search, base);
    const headers = new Headers(c.req.raw.headers);
    headers.delete('host');
    const body = ['GET', 'HEAD'].includes(c.req.method) ? undefined : await c.req.arrayBuffer();
    const res = await forwardAgain(upstream, c.req.method, headers, body);
    const out = new Headers(res.headers);
    out.delete('content-encoding');
    out.delete('content-length');
    out.delete('transfer-encoding');
    // Caddy's admin API sends its ETag as a trailer; the whole body is re-sent here, the ETag as a
    // header (what a client of the real API reads once the body ended).
    out.delete('trailer');
    const noBody = res.status === 204 || res.status === 304 || c.req.method === 'HEAD';
    return new Response(noBody ? null : res.body, { status: res.status, headers: out });
  });
  return { app, faults };
}

/**
 * A read sent again when its connection was refused or reset before any answer: while Caddy
 * replaces its admin server after a config change, a new connection can meet the old listener's
 * close (a CI run: a GET of the routes answered 500 here). Only reads: a write met by a reset may
 * have been applied, and its caller decides.
 */
async function forwardAgain(url: URL, method: string, headers: Headers, body?: ArrayBuffer): ReturnType<typeof forward> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await forward(url, method, headers, body);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (!['GET', 'HEAD'].includes(method) || attempt >= 3 || (code !== 'ECONNRESET' && code !== 'ECONNREFUSED')) throw e;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * One request upstream on a connection of its own. Not a kept connection: Caddy replaces its admin
 * server after every config change and closes the old one's idle connections, so a request sent on
 * a kept one could meet the close and fail here as a 500 the real admin API never gave.
 */
function forward(url: URL, method: string, headers: Headers, body?: ArrayBuffer): Promise<{ status: number; headers: Headers; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: Object.fromEntries(headers), agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const out = new Headers();
        for (const [k, v] of Object.entries({ ...res.headers, ...res.trailers })) for (const one of [v ?? []].flat()) out.append(k, one);
        resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body ? Buffer.from(body) : undefined);
  });
}
