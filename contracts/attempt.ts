import { defineSignal, defineUpdate } from '@temporalio/workflow';

/**
 * The update that carries one call to an object's run (delivered by update-with-start). Every
 * workflow that takes calls names it `attempt`; the workflow type tells them apart.
 */
export function attemptUpdate<Res, Req>() {
  return defineUpdate<Res, [Req]>('attempt');
}

/**
 * What a run that parks after a failed attempt is started with: how long it waits for the repeat
 * before it gives up (the site's `PARKED_RUN_TIMEOUT`). Absent in runs begun before the run model.
 */
export interface Parked {
  parkedTimeoutMs?: number;
}

/**
 * Who made a call, for the audit log (`operator`, `tenant:<name>`, `enrollment:<name>`): the worker
 * writes each entry with the registry change it records (docs/decisions.md, "One audit place").
 * Absent in calls made before it was carried.
 */
export interface Audited {
  actor?: string;
}

/** The bound a run begun without one parks under: the setting's default, 24 h. */
export const DEFAULT_PARKED_MS = 24 * 3600_000;

/**
 * Sent by the API to an object's run once the object was deleted: a run parked after a failed
 * attempt has nothing left to resume, so it ends (`Outcome` `superseded`) instead of waiting out
 * its parked timeout. A run not parked ignores it.
 */
export const objectGone = defineSignal('objectGone');
