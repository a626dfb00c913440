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
    const res = await fetch(upstream, { method: c.req.method, headers, body });
    const out = new Headers(res.headers);
    out.delete('content-encoding');
    out.delete('content-length');
    out.delete('transfer-encoding');
    // Caddy's admin API sends its ETag as a trailer; the whole body is re-sent here, without one.
    out.delete('trailer');
    const noBody = res.status === 204 || res.status === 304 || c.req.method === 'HEAD';
    return new Response(noBody ? null : await res.arrayBuffer(), { status: res.status, headers: out });
  });
  return { app, faults };
}
