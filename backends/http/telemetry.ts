/**
 * What every backend HTTP call reports: a client span (OpenTelemetry; a no-op unless the process
 * set up tracing) whose context travels to the backend in `traceparent`, and one observation for
 * the metrics (to the observer of the worker's `BackendCalls`, calls.ts; none when its metrics are off). Neither carries a URL query,
 * a header or a body: those hold credentials.
 */
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';

export type BackendCallResult = 'ok' | 'refused' | 'error' | 'timeout' | 'unreachable';

export type BackendCallObserver = (backend: string, result: BackendCallResult, seconds: number) => void;

/** The result label of an answered call: 2xx or an accepted status is ok, 4xx refused, else error. */
export function resultOfStatus(status: number, accepted: boolean): BackendCallResult {
  if (accepted || (status >= 200 && status < 300)) return 'ok';
  return status >= 400 && status < 500 && status !== 408 && status !== 429 ? 'refused' : 'error';
}

/** The result label of a call that got no answer. */
export function resultOfError(err: Error): BackendCallResult {
  return /no answer within/.test(err.message) ? 'timeout' : 'unreachable';
}

const tracer = trace.getTracer('tenant-provisioning/backends');

/**
 * Runs one call in a client span; `send` gets the headers to send (the caller's plus the trace
 * context) and returns the status, or throws when nothing answered.
 */
export async function instrumentBackendCall<T extends { status: number }>(
  call: { backend: string; method: string; url: URL; headers: Record<string, string>; accepted: (status: number) => boolean },
  send: (headers: Record<string, string>) => Promise<T>,
  observe?: BackendCallObserver,
): Promise<T> {
  const started = performance.now();
  const span = tracer.startSpan(`${call.method} ${call.backend}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      backend: call.backend,
      'http.request.method': call.method,
      'server.address': call.url.hostname,
      'server.port': Number(call.url.port || (call.url.protocol === 'https:' ? 443 : 80)),
      'url.path': call.url.pathname,
    },
  });
  const headers = { ...call.headers };
  propagation.inject(trace.setSpan(context.active(), span), headers);
  let result: BackendCallResult;
  try {
    const res = await send(headers);
    result = resultOfStatus(res.status, call.accepted(res.status));
    span.setAttribute('http.response.status_code', res.status);
    if (result !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR });
    return res;
  } catch (e) {
    result = resultOfError(e as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: result });
    throw e;
  } finally {
    span.setAttribute('backend.result', result!);
    span.end();
    observe?.(call.backend, result!, (performance.now() - started) / 1000);
  }
}
