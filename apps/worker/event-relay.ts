/**
 * The event relay (issue 47 item 3): what an operator should hear of without watching — drift a
 * sweep found, runs parked after a failed step, runs that gave up — found each round, emitted once
 * into the registry's feed (`GET /v1/events`), and at a site with a webhook delivered signed as
 * Standard Webhooks sign (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64
 * HMAC-SHA256 of "id.timestamp.body">`), retried with backoff until it answers 2xx. Each worker runs
 * one; the registry makes them agree: an event is emitted once by its key, and a delivery is leased
 * to one worker at a time. The sweep's results are kept too, for `GET /v1/sweeps`.
 */
import { createHmac } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time.js';
import type { Logger } from 'pino';
import type { SweepResult } from '../../contracts/tenant.js';
import {
  emitEvents,
  eventAttemptFailed,
  eventDelivered,
  keptSweeps,
  lastSweepClose,
  leaseDueEvents,
  recordSweep,
  type NewEvent,
} from '../../db/queries/events.js';
import { runsInStates } from '../../db/queries/object-runs.js';
import type { Db } from '../../db/registry.js';
import type { EventRow } from '../../db/schema/index.js';
import type { Site } from '../../activities/site.js';
import { everyInterval } from './rounds.js';

export interface Webhook {
  url: string;
  secret: string;
}

export interface RelayDeps {
  db: Db;
  client: Client;
  log: Logger;
  webhook?: Webhook;
  /** The delays between a failed delivery and the next attempt; after the last, it is given up. */
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
}

/** About a day and a half of retries, closer together at first (Standard Webhooks' advice). */
export const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;

/** The signing key: a `whsec_` secret is base64 after its prefix (Standard Webhooks); any other, its UTF-8 bytes. */
export const signingKey = (secret: string): Buffer => (secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8'));

/** `webhook-signature` of a body: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** A closed sweep's drift, one event per tenant with objects not in place. */
export function driftEvents(sweep: { workflowId: string; runId: string; closedAt: Date }, result: SweepResult): NewEvent[] {
  return Object.entries(result.corrected ?? {})
    .filter(([, objects]) => objects.length > 0)
    .map(([tenant, objects]) => ({
      key: `sweep/${sweep.runId}/${tenant}`,
      type: 'drift.found',
      data: {
        tenant,
        sweep: { run: sweep.workflowId, run_id: sweep.runId, closed_at: sweep.closedAt.toISOString(), mode: result.mode ?? 'correct' },
        objects,
        found: result.found?.[tenant] ?? {},
      },
    }));
}

/** Closed sweeps since the last one kept: their results kept, their drift emitted. */
async function collectSweeps(deps: RelayDeps): Promise<void> {
  const since = await lastSweepClose(deps.db);
  // A minute back: visibility may list a run a little after its close time.
  const after = since ? ` AND CloseTime > '${new Date(since.getTime() - 60_000).toISOString()}'` : '';
  const listed = await deps.client.workflowService.listWorkflowExecutions({
    namespace: deps.client.options.namespace,
    // By type: a sweep started by hand (`temporal workflow start`) carries no Operation attribute.
    query: `WorkflowType = 'reconcileSweep' AND ExecutionStatus = 'Completed'${after}`,
    pageSize: 50,
  });
  const executions = [...(listed.executions ?? [])].reverse();
  // The look-back lists the newest kept sweeps again each round: their histories are not read again.
  const kept = await keptSweeps(
    deps.db,
    executions.map((e) => e.execution?.runId ?? ''),
  );
  for (const e of executions) {
    const workflowId = e.execution?.workflowId;
    const runId = e.execution?.runId;
    if (!workflowId || !runId || kept.has(runId)) continue;
    const result = (await deps.client.workflow.getHandle(workflowId, runId).result()) as SweepResult;
    const closedAt = new Date(optionalTsToMs(e.closeTime) ?? Date.now());
    const row = { runId, workflowId, startedAt: new Date(optionalTsToMs(e.startTime) ?? 0), closedAt, result: result as unknown as Record<string, unknown> };
    if (await recordSweep(deps.db, row)) await emitEvents(deps.db, driftEvents({ workflowId, runId, closedAt }, result));
  }
}

/** Runs parked after a failed step, and runs that gave up, as the registry records them. */
async function collectRuns(deps: RelayDeps): Promise<void> {
  const runs = await runsInStates(deps.db, ['parked', 'given-up']);
  await emitEvents(
    deps.db,
    runs.map((r) => ({
      key: r.state === 'parked' ? `parked/${r.workflowId}/${r.runId}/${r.since.toISOString()}` : `given-up/${r.workflowId}/${r.runId}`,
      type: r.state === 'parked' ? 'run.parked' : 'run.given-up',
      data: {
        run: r.workflowId,
        run_id: r.runId,
        operation: r.operation,
        tenant: r.tenant,
        object: r.object,
        since: r.since.toISOString(),
        ...(r.failure ? { failure: r.failure } : {}),
      },
    })),
  );
}

async function deliver(deps: RelayDeps, webhook: Webhook): Promise<void> {
  const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
  const timeoutMs = deps.timeoutMs ?? 10_000;
  for (const event of await leaseDueEvents(deps.db, 20, timeoutMs * 3)) {
    const error = await post(webhook, event, timeoutMs);
    if (error === undefined) {
      await eventDelivered(deps.db, event.seq);
      continue;
    }
    const retryIn = delays[event.attempts];
    await eventAttemptFailed(deps.db, event.seq, error, retryIn);
    deps.log.warn(
      { event: event.id, type: event.type, attempt: event.attempts + 1, error, retryInMs: retryIn },
      retryIn === undefined ? 'event webhook: given up' : 'event webhook: attempt failed',
    );
  }
}

/** One attempt; the reason it failed (no URL or secret in it), or undefined. */
async function post(webhook: Webhook, event: EventRow, timeoutMs: number): Promise<string | undefined> {
  const body = JSON.stringify(event.body);
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const res = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature(webhook.secret, event.id, timestamp, body),
      },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.ok ? undefined : `answered ${res.status}`;
  } catch (err) {
    return (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'could not connect';
  }
}

/** One round: find, emit, deliver. */
export async function relayRound(deps: RelayDeps): Promise<void> {
  await collectSweeps(deps);
  await collectRuns(deps);
  if (deps.webhook) await deliver(deps, deps.webhook);
}

/** A round every `intervalMs` until stopped (apps/worker/rounds.ts). */
export const startEventRelay = (deps: RelayDeps, intervalMs: number) => everyInterval('event relay', intervalMs, deps.log, () => relayRound(deps));

/** The relay of a worker process (apps/worker/main.ts, the lab's in-process worker), at a configured site. */
export function relayEvents(parts: { site: Site | undefined; db: Db; client: Client; log: Logger }): { stop(): Promise<void> } | undefined {
  const events = parts.site?.events;
  if (!events) return undefined;
  return startEventRelay({ db: parts.db, client: parts.client, log: parts.log, ...(events.webhook ? { webhook: events.webhook } : {}) }, events.intervalMs);
}
