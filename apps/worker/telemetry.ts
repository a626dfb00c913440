/**
 * What the worker adds to its Temporal options for metrics and traces: the activity interceptors
 * (OpenTelemetry's spans, the step metrics), the workflow interceptor modules when it bundles
 * from source (a pre-built bundle carries them; OpenTelemetry's only while tracing is on), and the sinks those workflow interceptors call.
 * The sinks are always there, doing nothing when their telemetry is off: a workflow calling a
 * sink the worker lacks would log a warning on every call.
 */
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks, WorkerOptions } from '@temporalio/worker';
import type { Tracing } from '../telemetry/tracing.js';
import type { BackendCallObserver } from '../../backends/http/telemetry.js';
import type { WorkerMetrics } from '../telemetry/metrics.js';
import { stepMetricsInterceptor } from './metrics-interceptor.js';
import type { ServiceMetricsSinks, SweepSummary } from './sweep-metrics-workflow-interceptor.js';
import { workflowInterceptorModules } from './workflow-interceptor-modules.js';

export interface WorkerTelemetry {
  metrics?: WorkerMetrics;
  tracing?: Tracing;
  /** Counts the worker's backend calls in `metrics`: given to its `BackendCalls` (workerBackendCalls) where it binds its ports. */
  observeBackendCall?: BackendCallObserver;
}

/** Counts a finished sweep. */
export function countSweep(metrics: WorkerMetrics, s: SweepSummary): void {
  metrics.sweepRuns.inc({ outcome: s.ok ? 'completed' : 'failed' });
  if (!s.ok) return;
  metrics.sweepTenants.inc({ result: 'reconciled' }, s.reconciled);
  metrics.sweepTenants.inc({ result: 'failed' }, s.failed);
  metrics.sweepCorrected.inc(s.corrected);
  metrics.lastSweepCorrected.set(s.corrected);
  metrics.lastSweepTime.set(Date.now() / 1000);
}

export function workerTelemetryOptions(t: WorkerTelemetry | undefined, opts: { fromSource: boolean }): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  const activity: ActivityInterceptorsFactory[] = [];
  if (t?.tracing) {
    activity.push((ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }));
  }
  if (t?.metrics) activity.push(stepMetricsInterceptor(t.metrics));
  const metrics = t?.metrics;
  const sinks: InjectedSinks<ServiceMetricsSinks> & Record<string, unknown> = {
    serviceMetrics: {
      sweepFinished: {
        fn: (_info, summary) => {
          if (metrics) countSweep(metrics, summary);
        },
        callDuringReplay: false,
      },
    },
    exporter: t?.tracing ? makeWorkflowExporter(t.tracing.spanProcessor, t.tracing.resource) : { export: { fn: () => {}, callDuringReplay: false } },
  };
  return {
    interceptors: { activity, ...(opts.fromSource ? { workflowModules: workflowInterceptorModules({ tracing: Boolean(t?.tracing) }) } : {}) },
    sinks: sinks as WorkerOptions['sinks'],
  };
}
