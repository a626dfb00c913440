import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { decodeTypedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes.js';
import { optionalTsToMs } from '@temporalio/common/lib/time.js';
import type { temporal } from '@temporalio/proto';
import type { z } from '@hono/zod-openapi';
import { objectOfRun } from '../../../contracts/ids.js';
import { FAILED_STEPS, OPERATION, OUTCOME, STEP, TENANT_NAME } from '../../../core/search-attributes.js';
import { runsByWorkflowId } from '../../../db/queries/object-runs.js';
import type { Db } from '../../../db/registry.js';
import type { ObjectRun } from '../../../core/object-life.js';
import { badRequest, runUnavailable } from '../errors.js';
import type { RunList, RunSummary, RUN_STATUSES, OPERATIONS } from '../schemas/run.js';

type Status = (typeof RUN_STATUSES)[number];
type Operation = (typeof OPERATIONS)[number];
type Summary = z.infer<typeof RunSummary>;

export interface RunFilter {
  tenant?: string;
  operation?: Operation;
  status?: Status;
  limit?: number;
  page?: string;
}

/** The runs of the site's tenants, from Temporal's visibility store, newest first (issue 47 item 2). */
export interface RunListOperations {
  list(filter: RunFilter): Promise<z.infer<typeof RunList>>;
}

const EXECUTION_STATUS: Record<Exclude<Status, 'parked'>, string> = {
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  terminated: 'Terminated',
  'timed-out': 'TimedOut',
  canceled: 'Canceled',
  'continued-as-new': 'ContinuedAsNew',
};

/**
 * The visibility query of a filter. Every value is one the API's schemas admit (a tenant name, an
 * operation of the fixed list): nothing a caller sends reaches the query unchecked.
 */
export function runQuery(filter: Omit<RunFilter, 'limit' | 'page'>): string {
  const parts: string[] = [];
  if (filter.tenant) parts.push(`${TENANT_NAME.name} = '${filter.tenant}'`);
  if (filter.operation) parts.push(`${OPERATION.name} = '${filter.operation}'`);
  // Parked is a running run whose last answer was a failed step (workflows/run-attributes.ts).
  if (filter.status === 'parked') parts.push(`ExecutionStatus = 'Running' AND ${OUTCOME.name} = 'failed'`);
  else if (filter.status) parts.push(`ExecutionStatus = '${EXECUTION_STATUS[filter.status]}'`);
  return parts.join(' AND ');
}

const STATUS_OF: Record<number, Exclude<Status, 'parked'>> = {
  1: 'running',
  2: 'completed',
  3: 'failed',
  4: 'canceled',
  5: 'terminated',
  6: 'continued-as-new',
  7: 'timed-out',
};

/** One execution as the API lists it; `recorded`: the registry's row of the same run, when it has one. */
export function summaryOf(e: temporal.api.workflow.v1.IWorkflowExecutionInfo, recorded?: ObjectRun): Summary {
  const attrs = decodeTypedSearchAttributes(e.searchAttributes?.indexedFields);
  const id = e.execution?.workflowId ?? '';
  const outcome = attrs.get(OUTCOME);
  const step = attrs.get(STEP);
  const tenant = attrs.get(TENANT_NAME);
  const object = objectOfRun(id)?.object;
  let status: Status = STATUS_OF[Number(e.status)] ?? 'running';
  // The registry knows a resumed run is in flight again before its next answer changes `Outcome`.
  if (status === 'running') status = recorded ? (recorded.state === 'parked' ? 'parked' : 'running') : outcome === 'failed' ? 'parked' : 'running';
  const failure = recorded?.failure && (status === 'parked' || recorded.state === 'given-up' || recorded.state === 'failed') ? recorded.failure : undefined;
  // Visibility takes the run's search attributes a moment after the registry has its failure: a run
  // shown parked says its failed answer and step at once, not an outcome and failed steps that
  // contradict its status until visibility catches up.
  const parkedHere = status === 'parked' && recorded?.state === 'parked';
  const failedSteps = attrs.get(FAILED_STEPS) ?? [];
  const shownOutcome = parkedHere ? 'failed' : outcome;
  const shownStep = step ?? failure?.step;
  const closed = optionalTsToMs(e.closeTime);
  return {
    id,
    run_id: e.execution?.runId ?? '',
    operation: (attrs.get(OPERATION) ?? e.type?.name ?? '') as Operation,
    ...(tenant ? { tenant } : {}),
    ...(object ? { object } : {}),
    status,
    ...(shownOutcome ? { outcome: shownOutcome } : {}),
    ...(shownStep ? { step: shownStep } : {}),
    failed_steps: failure && !failedSteps.includes(failure.step) ? [...failedSteps, failure.step] : failedSteps,
    ...(failure ? { failure } : {}),
    started_at: new Date(optionalTsToMs(e.startTime) ?? 0).toISOString(),
    ...(closed !== undefined ? { closed_at: new Date(closed).toISOString() } : {}),
  };
}

const DEFAULT_LIMIT = 20;

/**
 * The runs a status filter answers: those shown in that status. Visibility's query selects by its
 * own word (`Running`, `Outcome`), which the registry's overrules for a run parked or resumed a
 * moment ago, and a parked run is a `Running` execution too; a page may then hold fewer runs than
 * its limit, and `next_page` still leads on.
 */
export function ofStatus(runs: Summary[], status: Status | undefined): Summary[] {
  return status ? runs.filter((r) => r.status === status) : runs;
}

const MAC_LENGTH = 16;

/**
 * `next_page`: Temporal's page token behind a MAC of this site's key. Temporal answers a token it
 * cannot read with a retryable UNKNOWN ("something went wrong"), which a client retries for
 * seconds; only tokens this site handed out reach it, and anything else is a 400 at once.
 */
export function sealPage(key: Buffer, token: Uint8Array): string {
  return Buffer.concat([createHmac('sha256', key).update(token).digest().subarray(0, MAC_LENGTH), token]).toString('base64url');
}

export function openPage(key: Buffer, page: string): Uint8Array {
  const raw = Buffer.from(page, 'base64url');
  const token = raw.subarray(MAC_LENGTH);
  const mac = createHmac('sha256', key).update(token).digest().subarray(0, MAC_LENGTH);
  if (token.length === 0 || !timingSafeEqual(mac, raw.subarray(0, MAC_LENGTH))) throw badRequest('page: must be a next_page value this API answered');
  return token;
}

/** `pageKey`: the site's key for its page tokens (apps/config/env.ts `deriveKey`). */
export function runListOperations(client: Client, db: Db, pageKey: Buffer): RunListOperations {
  return {
    async list(filter) {
      const nextPageToken = filter.page ? openPage(pageKey, filter.page) : undefined;
      const answer = await client.workflowService
        .listWorkflowExecutions({ namespace: client.options.namespace, query: runQuery(filter), pageSize: filter.limit ?? DEFAULT_LIMIT, nextPageToken })
        .catch((err: unknown) => {
          throw runUnavailable(err);
        });
      const executions = answer.executions ?? [];
      const recorded = await runsByWorkflowId(db, [...new Set(executions.map((e) => e.execution?.workflowId ?? ''))]);
      const byRun = new Map(recorded.map((r) => [`${r.workflowId} ${r.runId}`, r]));
      const runs = ofStatus(
        executions.map((e) => summaryOf(e, byRun.get(`${e.execution?.workflowId} ${e.execution?.runId}`))),
        filter.status,
      );
      const next = answer.nextPageToken && answer.nextPageToken.length > 0 ? sealPage(pageKey, answer.nextPageToken) : undefined;
      return { runs, ...(next ? { next_page: next } : {}) };
    },
  };
}
