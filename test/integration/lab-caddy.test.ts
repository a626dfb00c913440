import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bootstrapConfig, startCaddy } from '../../apps/lab/servers/caddy.js';
import { listenersOn } from '../../core/listen-port.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Caddy binds its ports with SO_REUSEPORT: a second Caddy given the same port binds it too, without
 * an error, and the kernel splits connections between them. Two parallel labs whose Caddys met on
 * one port wrote each other's routes (a race census saw routes missing after a create and left
 * after a delete). The lab counts the port's listeners and starts again on other ports.
 */
const strays: ChildProcess[] = [];
afterAll(() => {
  for (const c of strays) c.kill('SIGKILL');
});

describe("the lab's Caddy", () => {
  it('owns its ports alone once started', async () => {
    const caddy = await startCaddy();
    try {
      const admin = Number(new URL(caddy.adminUrl).port);
      const logs = Number(new URL(caddy.url).port);
      expect([(await listenersOn(admin))?.length, (await listenersOn(logs))?.length]).toEqual([1, 1]);
    } finally {
      await caddy.stop();
    }
  });

  it('a second Caddy on the same ports is counted: two listeners where the kernel would split the calls', async () => {
    const caddy = await startCaddy();
    const dir = await mkdtemp(join(tmpdir(), 'caddy-stray-'));
    try {
      const admin = Number(new URL(caddy.adminUrl).port);
      const logs = Number(new URL(caddy.url).port);
      const config = join(dir, 'c.json');
      await writeFile(config, JSON.stringify(bootstrapConfig(caddy.server, admin, logs)));
      const stray = spawn('caddy', ['run', '--config', config], {
        stdio: 'ignore',
        env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir },
      });
      strays.push(stray);
      await waitFor(async () => (await listenersOn(admin))?.length === 2 && (await listenersOn(logs))?.length === 2, 10_000);
      stray.kill('SIGKILL');
      await waitFor(async () => (await listenersOn(admin))?.length === 1, 10_000);
    } finally {
      await caddy.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('given ports another Caddy holds, starts again on ports of its own', async () => {
    const first = await startCaddy();
    try {
      const taken = { admin: Number(new URL(first.adminUrl).port), logs: Number(new URL(first.url).port) };
      const second = await startCaddy({ ports: taken });
      try {
        const admin = Number(new URL(second.adminUrl).port);
        expect(admin).not.toBe(taken.admin);
        expect([(await listenersOn(taken.admin))?.length, (await listenersOn(admin))?.length]).toEqual([1, 1]);
        // Each answers with its own config.
        const listen = async (url: string) => ((await (await fetch(`${url}/config/`)).json()) as { admin: { listen: string } }).admin.listen;
        expect([await listen(first.adminUrl), await listen(second.adminUrl)]).toEqual([`127.0.0.1:${taken.admin}`, `127.0.0.1:${admin}`]);
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  });
});
