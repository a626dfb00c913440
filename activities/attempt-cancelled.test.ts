import { MockActivityEnvironment } from '@temporalio/testing';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BackendHttp } from '../backends/http/client.js';
import { workerBackendCalls } from './backend-areas.js';
import type { Site } from './site.js';
import { stopIfCancelled } from './attempt-cancelled.js';

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

describe("a worker's backend calls", () => {
  it('leave no more once their attempt is cancelled: the write it would have sent never reaches the backend', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const calls = workerBackendCalls({ backendCallsPerSecond: 0 } as Site);
      const http = new BackendHttp('minio', `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {}, 5_000, { calls });
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
      server.close();
    }
  });
});
