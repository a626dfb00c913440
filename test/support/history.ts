import proto from '@temporalio/proto';
import { AesGcmCodec } from '../../temporal/codec.js';
import type { TestSite } from './site.js';

const { temporal } = proto;

/**
 * A run's whole history as the server holds it (`raw`) and every payload in it decoded through
 * the site's payload codec (`decoded`: inputs, results, markers, updates, failures, memo, details),
 * which is what anyone with codec access (the UI, the CLI with the operator token) reads.
 */
export async function runHistory(
  site: TestSite,
  execution: { workflowId: string; runId?: string },
): Promise<{ raw: Buffer; decoded: Buffer; events: number; payloads: number }> {
  const codec = new AesGcmCodec(site.config.codecKey!);
  const raws: Buffer[] = [];
  const decoded: Buffer[] = [];
  let events = 0;
  let payloads = 0;
  let nextPageToken: Uint8Array | undefined;
  for (let page = 0; page < 100; page++) {
    const res = await site.temporal.workflowService.getWorkflowExecutionHistory({ namespace: site.namespace, execution, nextPageToken });
    raws.push(Buffer.from(temporal.api.history.v1.History.encode(res.history!).finish()));
    events += res.history?.events?.length ?? 0;
    for (const p of payloadsIn(res.history)) {
      payloads++;
      for (const d of await codec.decode([p])) decoded.push(Buffer.from(d.data ?? []), Buffer.from(JSON.stringify(d.metadata ?? {})));
    }
    if (!res.nextPageToken?.length) break;
    nextPageToken = res.nextPageToken;
  }
  return { raw: Buffer.concat(raws), decoded: Buffer.concat(decoded), events, payloads };
}

type Payload = { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null };

/** Every Temporal Payload anywhere in a decoded protobuf object. */
function* payloadsIn(node: unknown, seen = new Set<unknown>()): Generator<Payload> {
  if (node === null || typeof node !== 'object' || seen.has(node) || node instanceof Uint8Array) return;
  seen.add(node);
  const o = node as Record<string, unknown>;
  if (o.data instanceof Uint8Array && o.metadata && typeof o.metadata === 'object') {
    yield o as Payload;
    return;
  }
  for (const v of Object.values(o)) {
    if (Array.isArray(v)) for (const x of v) yield* payloadsIn(x, seen);
    else yield* payloadsIn(v, seen);
  }
}

/**
 * The identities of the workers that started an activity task in any run of the site's namespace
 * that started at or after `since`: how a test knows which worker processes really did the work.
 */
export async function activityWorkers(site: TestSite, since: Date, activityType?: string): Promise<Set<string>> {
  const identities = new Set<string>();
  for await (const w of site.client.workflow.list({ query: `StartTime >= "${since.toISOString()}"` })) {
    const history = await site.client.workflow.getHandle(w.workflowId, w.runId).fetchHistory();
    const typeOf = new Map<string, string>();
    for (const e of history.events ?? []) {
      const scheduled = e.activityTaskScheduledEventAttributes?.activityType?.name;
      if (scheduled && e.eventId) typeOf.set(String(e.eventId), scheduled);
      const started = e.activityTaskStartedEventAttributes;
      if (!started?.identity) continue;
      // Only the workers that ran this activity type (the contended write), when one is asked for.
      if (activityType === undefined || typeOf.get(String(started.scheduledEventId)) === activityType) identities.add(started.identity);
    }
  }
  return identities;
}

/** Resolves once every one of `identities` polls the site's task queue for activities. */
export async function waitForActivityPollers(site: TestSite, identities: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await site.temporal.workflowService.describeTaskQueue({
      namespace: site.namespace,
      taskQueue: { name: site.config.env.TEMPORAL_TASK_QUEUE },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
    });
    const polling = new Set((res.pollers ?? []).map((p) => p.identity));
    if (identities.every((i) => polling.has(i))) return;
    if (Date.now() > deadline) throw new Error(`workers not polling in time: ${identities.filter((i) => !polling.has(i)).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Failure = { message?: string | null; encodedAttributes?: Payload | null; cause?: Failure | null } | null | undefined;

/** A failure and its causes, decoded (the failure converter encodes their messages): `outer: inner: ...`. */
async function failureText(codec: AesGcmCodec, failure: Failure): Promise<string | undefined> {
  const parts: string[] = [];
  for (let f = failure; f; f = f.cause) {
    const [attributes] = f.encodedAttributes ? await codec.decode([f.encodedAttributes]) : [];
    parts.push(attributes ? (JSON.parse(Buffer.from(attributes.data ?? []).toString('utf8')) as { message: string }).message : (f.message ?? ''));
  }
  return parts.length ? parts.join(': ') : undefined;
}

/** Each completed activity of `activityType` in the runs of the site's namespace started at or after `since`. */
async function* completedActivities(
  site: TestSite,
  since: Date,
  activityType: string,
): AsyncGenerator<{ workflowId: string; payloads: Payload[]; attempt: number; lastFailure?: string }> {
  const codec = new AesGcmCodec(site.config.codecKey!);
  for await (const w of site.client.workflow.list({ query: `StartTime >= "${since.toISOString()}"` })) {
    const history = await site.client.workflow.getHandle(w.workflowId, w.runId).fetchHistory();
    const typeOf = new Map<string, string>();
    const attemptOf = new Map<string, { attempt: number; lastFailure?: string }>();
    for (const e of history.events ?? []) {
      const scheduled = e.activityTaskScheduledEventAttributes?.activityType?.name;
      if (scheduled && e.eventId) typeOf.set(String(e.eventId), scheduled);
      // A retried activity's history holds only its last attempt's start, numbered.
      const started = e.activityTaskStartedEventAttributes;
      if (started && e.eventId) attemptOf.set(String(e.eventId), { attempt: started.attempt ?? 1, lastFailure: await failureText(codec, started.lastFailure) });
      const done = e.activityTaskCompletedEventAttributes;
      if (!done || typeOf.get(String(done.scheduledEventId)) !== activityType) continue;
      yield {
        workflowId: w.workflowId,
        payloads: (done.result?.payloads ?? []) as Payload[],
        ...(attemptOf.get(String(done.startedEventId)) ?? { attempt: 1 }),
      };
    }
  }
}

/**
 * The decoded results of every completed activity of `activityType` in the runs of the site's
 * namespace that started at or after `since` (as the UI shows them, through the codec).
 */
export async function activityResults(site: TestSite, since: Date, activityType: string): Promise<unknown[]> {
  const codec = new AesGcmCodec(site.config.codecKey!);
  const results: unknown[] = [];
  for await (const done of completedActivities(site, since, activityType)) {
    for (const p of await codec.decode(done.payloads)) results.push(JSON.parse(Buffer.from(p.data ?? []).toString('utf8')));
  }
  return results;
}

/** The runs whose activity of `activityType` (since `since`) completed only after failed attempts: the attempt that did, and the last failure. */
export async function retriedActivities(
  site: TestSite,
  since: Date,
  activityType: string,
): Promise<Array<{ workflowId: string; attempt: number; lastFailure?: string }>> {
  const retried: Array<{ workflowId: string; attempt: number; lastFailure?: string }> = [];
  for await (const { workflowId, attempt, lastFailure } of completedActivities(site, since, activityType))
    if (attempt > 1) retried.push({ workflowId, attempt, lastFailure });
  return retried;
}
