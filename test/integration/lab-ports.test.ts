import { Hono } from 'hono';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCodecProxy } from '../../apps/lab/codec-proxy.js';
import { onLastPortOrAny } from '../../apps/lab/last-port.js';
import { startKea } from '../../apps/lab/servers/kea.js';
import { startMosquitto } from '../../apps/lab/servers/mosquitto.js';
import { serveApp } from '../../apps/lab/simulators/serve.js';
import { startDevServer } from '../../temporal/dev-server.js';

/**
 * A kept lab starts its servers on the ports they had last time (`npm start`, site-state.json). Those
 * are ephemeral ports: between the stop and the next start any other process may hold one. Once that
 * ended the lab (`listen EADDRINUSE`, an unhandled 'error' event, lab exit 1, seen in CI's
 * lab-restart test). Here another process holds the remembered port and each kind of lab server
 * starts on a port of its own instead.
 */
let holder: Server;
let held: number;
const accepted: Socket[] = [];
beforeAll(async () => {
  // It accepts and never answers: a server that asks only "does the port accept?" is fooled by it.
  holder = createServer((socket) => accepted.push(socket));
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
  held = (holder.address() as { port: number }).port;
});
afterAll(async () => {
  for (const socket of accepted) socket.destroy();
  await new Promise<void>((r) => holder.close(() => r()));
});

const hello = new Hono().get('/', (c) => c.text('hello'));

/** kea-dhcp4's answer to `command`, through the control agent at `url`. */
async function keaCommand(url: string, command: string): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command, service: ['dhcp4'] }) });
  return ((await res.json()) as unknown[])[0];
}

describe('a lab server whose remembered port another process holds', () => {
  it('serveApp on that port rejects with EADDRINUSE instead of crashing the process', async () => {
    await expect(serveApp(hello, held)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('a simulator starts on another port and answers there', async () => {
    const server = await onLastPortOrAny(held, (port) => serveApp(hello, port));
    try {
      expect(server.port).not.toBe(held);
      expect(await (await fetch(server.url)).text()).toBe('hello');
    } finally {
      await server.close();
    }
  });

  it('a simulator whose port is free starts on it again', async () => {
    const first = await serveApp(hello);
    await first.close();
    const server = await onLastPortOrAny(first.port, (port) => serveApp(hello, port));
    await server.close();
    expect(server.port).toBe(first.port);
  });

  it('Mosquitto starts on another port', async () => {
    const broker = await onLastPortOrAny(held, (port) => startMosquitto(port ? { port } : {}));
    try {
      expect(broker.port).not.toBe(held);
    } finally {
      await broker.stop();
    }
  });

  it("Kea's control agent starts on another port and answers there", async () => {
    const kea = await onLastPortOrAny(held, (port) => startKea({ subnets: [{ id: 1, subnet: '10.201.0.0/24' }], ...(port ? { port } : {}) }));
    try {
      expect(Number(new URL(kea.controlUrl).port)).not.toBe(held);
      expect(((await keaCommand(kea.controlUrl, 'version-get')) as { result: number }).result).toBe(0);
    } finally {
      await kea.stop();
    }
  });
});

describe('a server that cannot listen on port 0, given a port where another of its kind answers', () => {
  // Such a server answers as this one would: "something answers on the port" was the readiness
  // test, and a start failed with EADDRINUSE passed for started.
  it('Kea starts on another port, and its control agent is the one answering there', async () => {
    const first = await startKea({ subnets: [{ id: 1, subnet: '10.201.0.0/24' }] });
    try {
      const taken = Number(new URL(first.controlUrl).port);
      const second = await startKea({ subnets: [{ id: 1, subnet: '10.202.0.0/24' }], port: taken });
      try {
        expect(Number(new URL(second.controlUrl).port)).not.toBe(taken);
        const answer = (await keaCommand(second.controlUrl, 'config-get')) as { arguments: { Dhcp4: { subnet4: { subnet: string }[] } } };
        expect(answer.arguments.Dhcp4.subnet4.map((s) => s.subnet)).toEqual(['10.202.0.0/24']);
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  });

  it('Mosquitto told to keep a port another broker holds fails rather than answer with that broker', async () => {
    const first = await startMosquitto();
    try {
      await expect(startMosquitto({ port: first.port })).rejects.toThrow(/every port tried was taken/);
    } finally {
      await first.stop();
    }
  });

  it("the Temporal dev server told to keep the shared dev server's port fails rather than answer with that server", async () => {
    const shared = Number(inject('temporalAddress').split(':')[1]);
    await expect(startDevServer({ projectRoot: process.cwd(), port: shared })).rejects.toThrow(/every port tried was taken/);
  });
});

describe("the lab's codec proxy", () => {
  it('listens on a port of its own before the API is up, and forwards once it is', async () => {
    let apiStarted!: (url: string) => void;
    const proxy = await startCodecProxy({
      apiUrl: new Promise<string>((r) => (apiStarted = r)),
      token: 'codec-token-0123456789',
      uiOrigin: 'http://127.0.0.1:8233',
    });
    const api = await serveApp(new Hono().post('/codec/decode', (c) => c.json({ auth: c.req.header('authorization') })));
    try {
      const answer = fetch(`${proxy.url}/decode`, { method: 'POST', body: '{"payloads":[]}' });
      // Asked before the API is known: the call waits for it rather than failing.
      await new Promise((r) => setTimeout(r, 200));
      apiStarted(api.url);
      const res = await answer;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ auth: 'Bearer codec-token-0123456789' });
    } finally {
      await Promise.all([proxy.close(), api.close()]);
    }
  });
});
