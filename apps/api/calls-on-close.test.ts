import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { callsAbortedOnClose } from './calls-on-close.js';

/** Against the suite's Temporal server: the requests are the client's own, as the API makes them. */
let connection: Connection;
beforeAll(async () => {
  connection = await Connection.connect({ address: inject('temporalAddress') });
});
afterAll(async () => {
  await connection?.close();
});

describe('callsAbortedOnClose', () => {
  it('gives each call a signal of its own and keeps none once the calls have ended', async () => {
    const seen = new Set<AbortSignal>();
    const calls = callsAbortedOnClose(connection, async () => {
      seen.add(connection.callContextStorage.getStore()!.abortSignal!);
      await connection.workflowService.getSystemInfo({});
      return 'answered';
    });
    const answers = await Promise.all(Array.from({ length: 15 }, () => calls.call()));
    expect(answers).toEqual(Array(15).fill('answered'));
    // One signal per call: the client adds a listener to it for each request and never removes it.
    expect(seen.size).toBe(15);
    expect(calls.open()).toBe(0);
  });

  it("ends a call's Temporal request in flight when all are aborted", async () => {
    // A run on a queue nobody serves: waiting for its result is a long poll that never answers.
    const client = new Client({ connection, namespace: 'default' });
    const handle = await client.workflow.start('nobodyServesThis', {
      taskQueue: `nobody-${randomBytes(4).toString('hex')}`,
      workflowId: `calls-on-close-${randomBytes(4).toString('hex')}`,
    });
    const calls = callsAbortedOnClose(connection, async () => {
      await handle.result();
      return 'answered';
    });
    const waiting = calls.call().then(
      (v) => v,
      (err: Error) => `ended: ${err.name} ${err.message}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(calls.open()).toBe(1);
    const abortedAt = Date.now();
    calls.abortAll();
    expect(await waiting).toMatch(/^ended: /);
    expect(Date.now() - abortedAt).toBeLessThan(5_000);
    expect(calls.open()).toBe(0);
    await handle.terminate('test over');
  });
});
