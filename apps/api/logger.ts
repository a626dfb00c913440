import { trace } from '@opentelemetry/api';
import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';

/** The id of the request being served, for every log line written while serving it. */
export const requestScope = new AsyncLocalStorage<string>();

/** Field names that carry secrets anywhere in a logged object. */
export const SECRET_FIELDS = [
  'tsig_secret',
  'secret_key',
  'state_secret',
  'password',
  'api_token',
  'psk',
  'ingest_token',
  'read_token',
  'enrollment_token',
  'tsigSecret',
  'secretKey',
  'stateSecret',
  'apiToken',
  'ingestToken',
  'readToken',
  'authorization',
  'Authorization',
];

export function createLogger(level: string, name: string, destination?: pino.DestinationStream): Logger {
  const paths = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`]);
  return pino(
    {
      level,
      name,
      redact: { paths, censor: '[redacted]' },
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      // One logger for the process; the request id joins each line from the request's async scope
      // (cheaper than a child logger per request, and it reaches code deep in the call chain too).
      // A line written inside a traced request or activity names its trace (no span without tracing).
      mixin: () => {
        const id = requestScope.getStore();
        const span = trace.getActiveSpan()?.spanContext();
        const traced = span && trace.isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
        return id === undefined ? traced : { request_id: id, ...traced };
      },
    },
    destination,
  );
}

export type { Logger };
