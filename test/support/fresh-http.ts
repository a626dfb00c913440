import { request as httpRequest } from 'node:http';

/**
 * One request on a connection of its own, as a client arriving after a change would. Caddy (the
 * lab's log gateway) loads a changed config into a new server, and a kept-alive connection can
 * still be served by the one it ran before, so a check right after an admin API change must not
 * reuse one (fetch keeps connections alive).
 */
export function fresh(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', agent: false, headers: { ...init.headers, connection: 'close' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
