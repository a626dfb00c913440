import { defineUpdate } from '@temporalio/workflow';

/**
 * The update that carries one call to an object's run (delivered by update-with-start). Every
 * workflow that takes calls names it `attempt`; the workflow type tells them apart.
 */
export function attemptUpdate<Res, Req>() {
  return defineUpdate<Res, [Req]>('attempt');
}
