import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { runIds } from '../../contracts/ids.js';
import { attemptTenantCreate } from '../../contracts/tenant.js';
import { waitFor } from '../../test/support/wait-for.js';
import { deliver } from './deliver.js';

/**
 * A canary's call waits for its run's answer; a stopping worker serves that run no more, so the
 * wait must end with the attempt's cancellation (a lab once hung on Ctrl-C for ever when the hourly
 * isolation check began as its worker stopped).
 */
let connection: Connection;
let client: Client;
beforeAll(async () => {
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: 'default' });
});
afterAll(async () => {
  await connection?.close();
});

it('a canary call waiting on a run nobody serves ends when its attempt is cancelled', async () => {
  const name = `c${randomBytes(4).toString('hex')}`;
  const workflowId = runIds.tenantCreate(name);
  // A task queue no worker polls: the update is never answered, as when this worker stops.
  const taskQueue = `nobody-${name}`;
  const env = new MockActivityEnvironment();
  const call = env.run(() => deliver(client, taskQueue, 'tenantCreate', workflowId, name, attemptTenantCreate, { name, actor: 'test' }));
  const outcome = call.then(
    () => 'answered',
    (err: Error) => err.name,
  );
  // The run has started and its update waits: the call is in flight when the attempt is cancelled.
  await waitFor(() =>
    client.workflow
      .getHandle(workflowId)
      .describe()
      .then(() => true)
      .catch(() => false),
  );
  expect(await Promise.race([outcome, new Promise((r) => setTimeout(() => r('still waiting'), 300))])).toBe('still waiting');
  const cancelledAt = Date.now();
  env.cancel('WORKER_SHUTDOWN');
  const ended = await Promise.race([outcome, new Promise((r) => setTimeout(() => r('still waiting after the cancel'), 10_000))]);
  await client.workflow
    .getHandle(workflowId)
    .terminate('test over')
    .catch(() => {});
  expect(ended).not.toBe('still waiting after the cancel');
  expect(ended).not.toBe('answered');
  expect(Date.now() - cancelledAt).toBeLessThan(10_000);
});
