import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaultProxy } from './fault-proxy.js';

/** An upstream that resets the connection of every request it was told to, and answers the rest. */
let upstream: Server;
let url: string;
let resets = 0;
const seen: string[] = [];
beforeAll(async () => {
  upstream = createServer((req, res) => {
    seen.push(req.method!);
    if (resets > 0) {
      resets--;
      req.socket.destroy();
      return;
    }
    res.end(JSON.stringify({ method: req.method }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
});
afterAll(() => new Promise((r) => upstream.close(r)));

/** One call through a proxy, its upstream resetting the first connection. */
async function throughReset(method: string, resent?: string[]): Promise<{ status: number; sent: number }> {
  const { app } = createFaultProxy(url, resent);
  seen.length = 0;
  resets = 1;
  const res = await app.request('/id/route-1', { method, ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }) });
  await res.arrayBuffer();
  return { status: res.status, sent: seen.length };
}

describe('the fault proxy after a connection reset before any answer', () => {
  it.each([
    ['a read, by default', 'GET', undefined, { status: 200, sent: 2 }],
    ['a DELETE, by default: not sent again (it may have been applied)', 'DELETE', undefined, { status: 502, sent: 1 }],
    ["a DELETE where its repeat is taken as done (Caddy's admin API)", 'DELETE', ['GET', 'HEAD', 'DELETE'], { status: 200, sent: 2 }],
    ['a POST, never', 'POST', ['GET', 'HEAD', 'DELETE'], { status: 502, sent: 1 }],
  ])('%s', async (_case, method, resent, want) => {
    expect(await throughReset(method, resent)).toEqual(want);
  });
});

describe('the fault proxy in front of a server that is away', () => {
  it('answers 502 naming the refused connection, as a reverse proxy does, after trying three times', async () => {
    // Port 9 (discard): nothing of the lab listens there, as the log-store tests' dead upstream.
    const { app } = createFaultProxy('http://127.0.0.1:9');
    const res = await app.request('/api/v1/servers/localhost');
    expect(res.status).toBe(502);
    expect(await res.text()).toBe("the lab's proxy could not reach the server behind it: ECONNREFUSED");
  });
});
