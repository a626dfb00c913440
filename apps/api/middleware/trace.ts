import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';

const tracer = trace.getTracer('tenant-provisioning/api');

/**
 * One server span per request, named by the route template (`POST /v1/tenants`, never the raw
 * path), continuing the caller's W3C trace context when it sends one. Everything the request does
 * (registry reads, the Temporal client, its log lines) runs inside it. Installed only when tracing
 * is on.
 */
export function traceRequests(): MiddlewareHandler {
  return async function withTrace(c, next) {
    const carrier: Record<string, string> = {};
    c.req.raw.headers.forEach((v, k) => (carrier[k] = v));
    const parent = propagation.extract(context.active(), carrier);
    const span = tracer.startSpan(c.req.method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': c.req.method } }, parent);
    try {
      await context.with(trace.setSpan(parent, span), () => next());
    } finally {
      span.updateName(`${c.req.method} ${c.req.routePath}`);
      span.setAttribute('http.route', c.req.routePath);
      span.setAttribute('http.response.status_code', c.res.status);
      if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
