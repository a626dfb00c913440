/**
 * The API's request metrics: `http_requests_total` and `http_request_duration_seconds` by method,
 * route template (Hono's `routePath`, e.g. `/v1/tenants/:t`, never the raw path naming a tenant),
 * status and ok, in the names and labels of `@hono/prometheus`.
 *
 * Observed from the request-context middleware, which already times every request, rather than by
 * a middleware of its own; the labelled children are kept per (method, route, status) so a
 * request costs a map lookup, not prom-client's label hashing. Measured in process on a bare Hono
 * route (medians of 5 × 50,000 requests): @hono/prometheus as a middleware added ~4 µs to a
 * 6–8 µs request; this adds less than the run-to-run noise (12.3 vs 12.0 µs with the request context).
 */
import { Counter, Histogram, type Registry } from 'prom-client';

export type RequestObserver = (method: string, route: string, status: number, seconds: number) => void;

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function httpRequestMetrics(registry: Registry): RequestObserver {
  const labelNames = ['method', 'route', 'status', 'ok'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'API requests by method, route template, status and ok.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'API request duration by method, route template, status and ok.',
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });
  const children = new Map<string, { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof duration.labels> }>();
  return function observeRequest(method, route, status, seconds) {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method, route, status: String(status), ok: String(status < 400) };
      child = { count: requests.labels(labels), time: duration.labels(labels) };
      children.set(key, child);
    }
    child.count.inc();
    child.time.observe(seconds);
  };
}
