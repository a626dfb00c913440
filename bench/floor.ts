import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createRequire } from 'node:module';
import { floorAttempt } from './floor-workflows.js';

const require = createRequire(import.meta.url);

/**
 * The create's shape on the same dev server, with every activity a no-op: what Temporal alone
 * costs a create here (../shared/tools/temporal-floor has the standalone tool and its figures).
 * A new tenant's create runs 2 registry calls, the fabric read, one activity per step and 1
 * closing registry call.
 */
export async function startFloor(address: string, namespace: string) {
  const taskQueue = `floor-${Date.now()}`;
  // The SDK's worker logs every state change at INFO: only warnings belong in the bench's output.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowsPath: require.resolve('./floor-workflows.ts'),
    activities: { noop: async (i: number) => i },
  });
  const running = worker.run();
  const clientConnection = await Connection.connect({ address });
  const client = new Client({ connection: clientConnection, namespace });
  let n = 0;
  return {
    /** One floor create of `steps` steps; its latency in ms. */
    async create(steps: number): Promise<number> {
      const t0 = performance.now();
      await shapedCreate(client, taskQueue, `floor-${taskQueue}-${n++}`, { localsBefore: 2, activities: steps + 1, localsAfter: 1 });
      return performance.now() - t0;
    },
    async stop() {
      worker.shutdown();
      await running;
      await clientConnection.close();
      await connection.close();
    },
  };
}

/** One create of the floor's shape, by update-with-start as the API sends a create. */
export async function shapedCreate(
  client: Client,
  taskQueue: string,
  workflowId: string,
  shape: { localsBefore: number; activities: number; localsAfter: number },
) {
  const startWorkflowOperation = new WithStartWorkflowOperation('createShapedFloor', { workflowId, taskQueue, workflowIdConflictPolicy: 'USE_EXISTING' });
  return client.workflow.executeUpdateWithStart(floorAttempt, { args: [shape], startWorkflowOperation });
}
