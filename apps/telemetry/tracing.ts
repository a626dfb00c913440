/**
 * OpenTelemetry tracing of one process (API or worker), on when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set: spans go to that collector over OTLP/HTTP (`<endpoint>/v1/traces`, as the OpenTelemetry
 * specification builds it from the standard variable), W3C trace context propagates between the
 * API, Temporal (through the interceptors' headers) and the backends (`traceparent`).
 *
 * Spans carry names, kinds, statuses and bounded attributes only; the code that makes them never
 * puts a header, body or URL query into one (those hold credentials), and the secrets scan reads
 * every exported span (test/e2e/tracing.test.ts).
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export interface Tracing {
  resource: Resource;
  spanProcessor: SpanProcessor;
  /** Sends what is buffered; call before the process exits. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

let installed: Tracing | undefined;

/**
 * Installs the process-wide tracer provider once; a second call (the API and the worker in one
 * process, as the lab and the tests run them) gets the same one.
 */
export function startTracing(opts: { endpoint: string | undefined; serviceName: string }): Tracing | undefined {
  if (!opts.endpoint) return undefined;
  if (installed) return installed;
  const resource = new Resource({ 'service.name': opts.serviceName });
  const exporter = new OTLPTraceExporter({ url: `${opts.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const spanProcessor = new BatchSpanProcessor(exporter, { scheduledDelayMillis: 500 });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Sets the global tracer provider, the AsyncLocalStorage context manager and W3C propagation.
  provider.register();
  installed = {
    resource,
    spanProcessor,
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
  return installed;
}
