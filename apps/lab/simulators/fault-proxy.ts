import { request } from 'node:http';
import { Hono } from 'hono';
import { resendBeforeAnswer } from '../resend.js';
import { withFaults, type Faults } from './faults.js';

/**
 * A pass-through HTTP proxy with the simulators' fault controls, put in front of the real servers
 * of the lab (PowerDNS, Recursor) so tests can make their API fail or stall like a simulator's.
 */
/**
 * `resentAfterReset`: the methods sent again when the upstream reset their connection before any
 * answer; reads by default. A write met by a reset may have been applied, so only one whose repeat
 * the caller takes as done belongs here (Caddy's `DELETE /id/<id>`: a repeat of an applied one is a
 * 404, which the adapter reads as gone).
 */
export function createFaultProxy(target: string, resentAfterReset: readonly string[] = ['GET', 'HEAD']): { app: Hono; faults: Faults } {
  const app = new Hono();
  const faults = withFaults(app);
  const base = new URL(target);
  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    const upstream = new URL(url.pathname + url.search, base);
    const headers = new Headers(c.req.raw.headers);
    headers.delete('host');
    const body = ['GET', 'HEAD'].includes(c.req.method) ? undefined : await c.req.arrayBuffer();
    // A CI run: a GET of Caddy's routes answered 500 here while Caddy replaced its admin server. A
    // refused connection carried nothing, and is sent again whatever its method.
    let res: Awaited<ReturnType<typeof forward>>;
    try {
      res = await resendBeforeAnswer(() => forward(upstream, c.req.method, headers, body), resentAfterReset.includes(c.req.method), 50);
    } catch (e) {
      // What a reverse proxy answers when the server behind it is away: 502 naming why, not the
      // 500 a thrown handler gave (a CI run read that as the Recursor's own answer).
      return c.text(`the lab's proxy could not reach the server behind it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 502);
    }
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
