import { request as httpRequest } from 'node:http';
import { resendBeforeAnswer } from '../../apps/lab/resend.js';

interface FreshInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Send again when the connection is refused or reset before any answer (at most twice, 100 ms
   * apart). Default: for the methods HTTP calls idempotent; a log shipper's POST sends again too,
   * and says so.
   */
  resend?: boolean;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * One request on a connection of its own, as a client arriving after a change would. Caddy (the
 * lab's log gateway) loads a changed config into a new server, and a kept-alive connection can
 * still be served by the one it ran before, so a check right after an admin API change must not
 * reuse one (fetch keeps connections alive). Caddy then moves its listener to the new server and
 * closes the old one's connections: a new connection can be reset (a CI run: ECONNRESET 7 ms after
 * the routes were written), and a client sends again, as this does (`resend`).
 */
export async function fresh(url: string, init: FreshInit = {}): Promise<{ status: number; text: string }> {
  const method = init.method ?? 'GET';
  return resendBeforeAnswer(() => once(url, method, init), init.resend ?? IDEMPOTENT.has(method), 100);
}

function once(url: string, method: string, init: FreshInit): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false, headers: { ...init.headers, connection: 'close' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
