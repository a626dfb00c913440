import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { candidatePort, onSomePort, PortTaken, portsHeld } from './listen-port.js';

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function listenOnZero(): Promise<number> {
  const s = createServer();
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return (s.address() as { port: number }).port;
}

describe('onSomePort', () => {
  it('tries another port while the start says its port was taken, and answers what the start did', async () => {
    const tried: number[] = [];
    const answer = await onSomePort(async (port) => {
      tried.push(port);
      if (tried.length < 3) throw new PortTaken('EADDRINUSE');
      return `on ${port}`;
    });
    expect(tried).toHaveLength(3);
    expect(new Set(tried).size).toBe(3);
    expect(answer).toBe(`on ${tried[2]}`);
  });

  it('throws any other failure of the start at once, not trying again', async () => {
    let tries = 0;
    await expect(
      onSomePort(async () => {
        tries++;
        throw new Error('bad config');
      }),
    ).rejects.toThrow('bad config');
    expect(tries).toBe(1);
  });

  it('tries `first` first and gives up after `tries`, naming each port tried', async () => {
    const tried: number[] = [];
    const failed = onSomePort(
      async (port) => {
        tried.push(port);
        throw new PortTaken('taken');
      },
      { first: 4242, tries: 2 },
    );
    await expect(failed).rejects.toThrow(/every port tried was taken \(4242: taken; \d+: taken\)/);
    expect(tried[0]).toBe(4242);
  });

  it('tries ports below the ephemeral ranges, where no outgoing connection is handed one', () => {
    for (let i = 0; i < 1000; i++) expect(candidatePort()).toSatisfy((p: number) => p >= 20_000 && p < 32_768);
  });
});

describe('portsHeld', () => {
  it("is 'mine' for a port the process listens on, 'other' for another process's, 'not yet' for a port nobody holds", async () => {
    const own = await listenOnZero();
    expect(await portsHeld(process.pid, [own])).toBe('mine');
    const child = spawn(process.execPath, ['-e', "require('net').createServer().listen(0, '127.0.0.1', function () { console.log(this.address().port) })"], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const theirs = Number(await new Promise<string>((r) => child.stdout.once('data', (d: Buffer) => r(d.toString()))));
      expect(await portsHeld(process.pid, [theirs])).toBe('other');
      expect(await portsHeld(child.pid!, [theirs])).toBe('mine');
      expect(await portsHeld(child.pid!, [theirs, own])).toBe('other');
    } finally {
      child.kill('SIGKILL');
    }
    const released = createServer();
    await new Promise<void>((r) => released.listen(0, '127.0.0.1', () => r()));
    const port = (released.address() as { port: number }).port;
    await new Promise<void>((r) => released.close(() => r()));
    expect(await portsHeld(process.pid, [port])).toBe('not yet');
  });
});
