/**
 * Workflow interceptor module (runs in the workflow sandbox, bundled with the workflows): when a
 * reconcile sweep ends, tells the worker what it did through the `serviceMetrics` sink, which
 * counts it (apps/worker/telemetry.ts). Sinks are the workflow's way out: it may not do I/O, and
 * the sink is not called again when the run is replayed.
 */
import {
  proxySinks,
  workflowInfo,
  type Sinks,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptorsFactory,
  type Next,
} from '@temporalio/workflow';

/** What a sweep did, in counts only (no tenant names reach the metrics). */
export interface SweepSummary {
  ok: boolean;
  tenants: number;
  reconciled: number;
  failed: number;
  corrected: number;
}

export interface ServiceMetricsSinks extends Sinks {
  serviceMetrics: {
    sweepFinished(summary: SweepSummary): void;
  };
}

const SWEEP_WORKFLOW = 'reconcileSweep';

/** Counts of a sweep's result (`{tenants, reconciled[], failed[], corrected{name: objects[]}}`). */
export function summarizeSweep(result: unknown): SweepSummary {
  const r = (result ?? {}) as { tenants?: unknown; reconciled?: unknown; failed?: unknown; corrected?: unknown };
  const corrected = r.corrected && typeof r.corrected === 'object' ? Object.values(r.corrected as Record<string, unknown>) : [];
  return {
    ok: true,
    tenants: typeof r.tenants === 'number' ? r.tenants : 0,
    reconciled: Array.isArray(r.reconciled) ? r.reconciled.length : 0,
    failed: Array.isArray(r.failed) ? r.failed.length : 0,
    corrected: corrected.reduce<number>((n, objects) => n + (Array.isArray(objects) ? objects.length : 0), 0),
  };
}

class SweepMetrics implements WorkflowInboundCallsInterceptor {
  private readonly sinks = proxySinks<ServiceMetricsSinks>();

  async execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    if (workflowInfo().workflowType !== SWEEP_WORKFLOW) return next(input);
    try {
      const result = await next(input);
      this.sinks.serviceMetrics.sweepFinished(summarizeSweep(result));
      return result;
    } catch (err) {
      this.sinks.serviceMetrics.sweepFinished({ ok: false, tenants: 0, reconciled: 0, failed: 0, corrected: 0 });
      throw err;
    }
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => ({ inbound: [new SweepMetrics()] });
