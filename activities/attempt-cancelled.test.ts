import { MockActivityEnvironment } from '@temporalio/testing';
import { AsyncResource } from 'node:async_hooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { asBackendStep } from './step-failure.js';
import pino from 'pino';
import { onBehalfOfMany } from '../backends/http/calls.js';
import { BackendHttp } from '../backends/http/client.js';
import { workerBackendCalls } from './backend-areas.js';
import type { Site } from './site.js';
import { CONFIRM_MS, noteHeartbeat, STALL_MARGIN_MS, stopIfCancelled } from './attempt-cancelled.js';

describe('stopIfCancelled', () => {
  it('an attempt cancelled while it waited (its heartbeat timed out) stops before its write', async () => {
    const env = new MockActivityEnvironment();
    let wrote = false;
    const attempt = env.run(async () => {
      // Queued for the fabric: the wait outlives the attempt, and the write would come after it.
      await new Promise((r) => setTimeout(r, 50));
      stopIfCancelled();
      wrote = true;
    });
    env.cancel('TIMED_OUT');
    await expect(attempt).rejects.toThrow(/cancelled \(TIMED_OUT\) and calls its backends no more/);
    expect(wrote).toBe(false);
  });

  it('an attempt still wanted goes on, and outside an activity (the bench) nothing is checked', async () => {
    const env = new MockActivityEnvironment();
    await expect(env.run(async () => (stopIfCancelled(), 'wrote'))).resolves.toBe('wrote');
    expect(() => stopIfCancelled()).not.toThrow();
  });
});

/** A backend that records each call it receives, and a client of it as a worker makes one. */
async function recordingBackend() {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const calls = workerBackendCalls({ backendCallsPerSecond: 0 } as Site);
  const http = new BackendHttp('minio', `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {}, 5_000, { calls });
  return { seen, http, close: () => server.close() };
}

describe("a worker's backend calls", () => {
  it('leave no more once their attempt is cancelled: the write it would have sent never reaches the backend', async () => {
    const { seen, http, close } = await recordingBackend();
    try {
      const env = new MockActivityEnvironment();
      const attempt = env.run(async () => {
        await http.call({ path: 'user-info' });
        // A read that outlived the attempt (its heartbeat late on a loaded server), then the write.
        await new Promise((r) => setTimeout(r, 50));
        await http.call({ method: 'PUT', path: 'add-user' });
      });
      await new Promise((r) => setTimeout(r, 20));
      env.cancel('TIMED_OUT');
      await expect(attempt).rejects.toThrow(/cancelled \(TIMED_OUT\)/);
      expect(seen).toEqual(['GET /user-info']);
      // A call outside any activity (a probe, the bench's direct calls) goes as before.
      await http.call({ method: 'PUT', path: 'add-user' });
      expect(seen).toEqual(['GET /user-info', 'PUT /add-user']);
    } finally {
      close();
    }
  });
});

describe('work on behalf of several callers', () => {
  it("goes on when one caller's attempt is given up on; that caller's own calls inside it do not", async () => {
    const { seen, http, close } = await recordingBackend();
    try {
      const leader = new MockActivityEnvironment();
      const other = new MockActivityEnvironment();
      // The other caller's own write, bound to its context as a batch binds it (backends/proxmox/sdn.ts).
      const othersWrite = (await other.run(async () => AsyncResource.bind(() => http.call({ method: 'PUT', path: 'other' })))) as () => Promise<unknown>;
      other.cancel('TIMED_OUT');
      const round = leader.run(async () =>
        onBehalfOfMany(async () => {
          await http.call({ method: 'PUT', path: 'lock' });
          await new Promise((r) => setTimeout(r, 50));
          const refused = await othersWrite().then(
            () => false,
            () => true,
          );
          await http.call({ method: 'PUT', path: 'release' });
          return refused;
        }),
      );
      await new Promise((r) => setTimeout(r, 20));
      leader.cancel('TIMED_OUT');
      // The leader given up on mid-round still releases the lock; the cancelled other's write is refused.
      await expect(round).resolves.toBe(true);
      expect(seen).toEqual(['PUT /lock', 'PUT /release']);
    } finally {
      close();
    }
  });
});

/** Blocks this process's event loop for `ms`, as a starved worker is: no timer, no heartbeat runs. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('an attempt that stalled (no heartbeat for most of its heartbeat timeout)', () => {
  // 400 ms of the timeout left once the margin is kept: a 600 ms stall passes it, a 100 ms one does not.
  const heartbeatTimeoutMs = STALL_MARGIN_MS + 400;
  const quiet = pino({ level: 'silent' });

  it('heartbeats before its write and, told it is no longer wanted, sends nothing', async () => {
    const { seen, http, close } = await recordingBackend();
    try {
      const env = new MockActivityEnvironment({ heartbeatTimeoutMs });
      // The server's answer to a heartbeat of an attempt it gave up on, a moment later: the attempt is cancelled.
      env.on('heartbeat', () => setTimeout(() => env.cancel('NOT_FOUND'), 100));
      const t0 = Date.now();
      const attempt = env.run(() =>
        asBackendStep(quiet, 'state', {}, async () => {
          await http.call({ path: 'user-info' });
          stall(600);
          await http.call({ method: 'PUT', path: 'add-user' });
        }),
      );
      await expect(attempt).rejects.toThrow(/backend step "state" failed/);
      expect(seen).toEqual(['GET /user-info']);
      // It went on once told, not at the end of its wait.
      expect(Date.now() - t0).toBeLessThan(600 + CONFIRM_MS);
    } finally {
      close();
    }
  });

  it('still wanted (no cancellation within the wait), writes after it', async () => {
    const { seen, http, close } = await recordingBackend();
    try {
      const env = new MockActivityEnvironment({ heartbeatTimeoutMs });
      let beats = 0;
      env.on('heartbeat', () => beats++);
      const t0 = Date.now();
      await env.run(() =>
        asBackendStep(quiet, 'state', {}, async () => {
          stall(600);
          await http.call({ method: 'PUT', path: 'add-user' });
        }),
      );
      expect(seen).toEqual(['PUT /add-user']);
      expect(beats).toBeGreaterThanOrEqual(1);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(600 + CONFIRM_MS - 50);
    } finally {
      close();
    }
  });

  it('without a stall, or without a heartbeat timeout, calls at once with no extra heartbeat', async () => {
    const { seen, http, close } = await recordingBackend();
    try {
      for (const info of [{ heartbeatTimeoutMs }, {}]) {
        const env = new MockActivityEnvironment(info);
        let beats = 0;
        env.on('heartbeat', () => beats++);
        const t0 = Date.now();
        await env.run(async () => {
          noteHeartbeat();
          stall(info.heartbeatTimeoutMs ? 100 : 600);
          await http.call({ method: 'PUT', path: 'add-user' });
        });
        expect(beats).toBe(0);
        expect(Date.now() - t0).toBeLessThan(CONFIRM_MS);
      }
      expect(seen).toEqual(['PUT /add-user', 'PUT /add-user']);
    } finally {
      close();
    }
  });
});
