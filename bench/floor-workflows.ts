import { allHandlersFinished, condition, defineUpdate, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';

/**
 * Temporal's own floor for a create's shape, with no backend and no registry work: started by
 * update-with-start like a create, running the same number of local activities (the registry
 * calls) and sequential activities (the fabric read and the steps), each doing nothing.
 */
const acts = proxyActivities<{ noop(i: number): Promise<number> }>({ startToCloseTimeout: '10s' });
const locals = proxyLocalActivities<{ noop(i: number): Promise<number> }>({ startToCloseTimeout: '10s' });

export const floorAttempt = defineUpdate<number, [{ activities: number; localsBefore: number; localsAfter: number }]>('attempt');

export async function createShapedFloor(): Promise<number> {
  let done = false;
  let r = 0;
  setHandler(floorAttempt, async (shape) => {
    for (let i = 0; i < shape.localsBefore; i++) r += await locals.noop(i);
    for (let i = 0; i < shape.activities; i++) r += await acts.noop(i);
    for (let i = 0; i < shape.localsAfter; i++) r += await locals.noop(i);
    done = true;
    return r;
  });
  await condition(() => done);
  await condition(allHandlersFinished);
  return r;
}
