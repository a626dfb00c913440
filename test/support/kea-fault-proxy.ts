import { Hono } from 'hono';
import { serveApp } from '../../apps/lab/simulators/serve.js';

/**
 * A pass-through proxy in front of the lab's real Kea control agent that can fail the next N
 * commands of one name (Kea takes every command as `POST /`, so the simulators' path-matching
 * faults cannot pick one). It listens before the site starts, so the site's SITE_DHCP_URL can
 * point at it; `target` is set once the site's Kea is up.
 */
export interface KeaFaultProxy {
  url: string;
  target: string;
  /** Fail the next `times` commands named `command` with HTTP 500. */
  failNext(command: 'config-get' | 'config-set' | 'config-write', times: number): void;
  /** Delay every command by `ms` (0 to stop), widening the window of concurrent read-modify-writes. */
  latency(ms: number): void;
  /**
   * Runs `act` after each of the next `times` commands named `command` reached Kea and before its
   * answer goes back: someone else (an operator, Stork, an HA partner) writing Kea right then.
   */
  after(command: string, act: () => Promise<void>, times?: number): void;
  clear(): void;
  close(): Promise<void>;
}

export async function startKeaFaultProxy(): Promise<KeaFaultProxy> {
  const failing = new Map<string, number>();
  const hooks = new Map<string, { act: () => Promise<void>; left: number }>();
  let delayMs = 0;
  const app = new Hono();
  const proxy = {} as KeaFaultProxy;
  app.post('*', async (c) => {
    const body = await c.req.text();
    let command = '';
    try {
      command = String((JSON.parse(body) as { command?: unknown }).command ?? '');
    } catch {}
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    const left = failing.get(command) ?? 0;
    if (left > 0) {
      failing.set(command, left - 1);
      return c.json({ error: 'injected fault' }, 500);
    }
    const headers = new Headers(c.req.raw.headers);
    headers.delete('host');
    headers.delete('content-length');
    const res = await fetch(proxy.target, { method: 'POST', headers, body });
    const answer = await res.arrayBuffer();
    const hook = hooks.get(command);
    if (hook && hook.left > 0) {
      hook.left -= 1;
      await hook.act();
    }
    return new Response(answer, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'application/json' } });
  });
  const server = await serveApp(app);
  return Object.assign(proxy, {
    url: `${server.url}/`,
    target: '',
    failNext: (command: string, times: number) => void failing.set(command, times),
    latency: (ms: number) => {
      delayMs = ms;
    },
    after: (command: string, act: () => Promise<void>, times = 1) => void hooks.set(command, { act, left: times }),
    clear: () => {
      failing.clear();
      hooks.clear();
      delayMs = 0;
    },
    close: () => server.close(),
  });
}
