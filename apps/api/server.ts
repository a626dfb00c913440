import type { ServerType } from '@hono/node-server';
import { Client, Connection } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext } from 'node:tls';
import type { Logger } from 'pino';
import { Registry } from '../../db/registry.js';
import { dataConverter } from '../../temporal/data-converter.js';
import { ConfigError, type Config } from '../config/env.js';
import { sealKeys } from '../config/keys.js';
import { createApp } from './app.js';
import { answerClientErrorsAsJson, jsonRequestListener } from './node-errors.js';
import { callsAbortedOnClose } from './calls-on-close.js';
import { buildInfo } from './build-info.js';
import type { TenantOperations } from './operations/tenant.js';
import { tenantOperations } from './operations/tenant.js';
import { deviceOperations } from './operations/device.js';
import { recordOperations } from './operations/record.js';
import { workloadOperations } from './operations/workload.js';
import type { PublishingDeps } from './operations/published-reads.js';
import { deriveKey } from '../config/env.js';
import { runListOperations, type RunListOperations } from './operations/run-list.js';
import { brokerAccountOperations, type BrokerAccountOperations } from './operations/broker-account.js';
import { certificateOperations } from './operations/certificate.js';
import { siteLostAnswers } from './lost-answers.js';
import { loadSiteIssuer } from '../config/ca.js';
import { schedulePurge } from './idempotency/purge.js';
import { traceRequests } from './middleware/trace.js';
import { tenantCensus } from '../../db/queries/census.js';
import { createApiMetrics } from '../telemetry/metrics.js';
import { httpRequestMetrics, type RequestObserver } from '../telemetry/http-metrics.js';
import { serveMetrics, type RunningMetrics } from '../telemetry/metrics-server.js';
import { startTracing } from '../telemetry/tracing.js';

/** How the API's channel to Temporal reconnects after losing the server: within a second or two. */
export const TEMPORAL_CHANNEL_ARGS = { 'grpc.initial_reconnect_backoff_ms': 250, 'grpc.max_reconnect_backoff_ms': 2_000 };

export interface RunningApi {
  url: string;
  port: number;
  registry: Registry;
  /** Where Prometheus scrapes this API (`<url>/metrics`); absent when METRICS_ADDRESS is unset. */
  metricsUrl?: string;
  close(): Promise<void>;
}

/** The certificate and key, checked before anything starts; a bad one names its variable, not its path. */
function loadTls(files: { certFile: string; keyFile: string }) {
  const read = (variable: string, file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new ConfigError(`${variable}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  };
  const cert = read('TLS_CERT_FILE', files.certFile);
  const key = read('TLS_KEY_FILE', files.keyFile);
  try {
    createSecureContext({ cert, key });
  } catch {
    throw new ConfigError('TLS_CERT_FILE, TLS_KEY_FILE: must be a PEM certificate and its private key');
  }
  return { cert, key, minVersion: 'TLSv1.2' as const };
}

/**
 * A slow client may not hold a connection forever (slow-loris headers and bodies): it gets 408 and
 * is closed. Node checks these bounds only every `connectionsCheckingInterval` (30 s by default,
 * which made the bounds 40 s and 60 s), and reads that interval only when the server is created.
 */
export const SLOW_CLIENT_BOUNDS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 };

/** The API's own metrics: the request observer and the registry Prometheus scrapes. */
type ApiMetrics = { observe: RequestObserver; registry: ReturnType<typeof createApiMetrics>['registry'] };

/**
 * Starts the API: listens at once, migrates the registry in the background (until then /v1
 * answers 503), connects to Temporal lazily so reads never wait for it.
 */
export async function startApi(opts: { config: Config; log: Logger; operations?: TenantOperations }): Promise<RunningApi> {
  const { config, log } = opts;
  const tls = config.tls ? loadTls(config.tls) : undefined;
  const issuer = config.site ? loadSiteIssuer(config.site) : undefined;
  const registry = new Registry(config.env.DATABASE_URL, log);
  const migrating = new AbortController();
  void registry.migrate(migrating.signal);
  const tracing = startTracing({ endpoint: config.env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: 'tenant-provisioning-api' });
  let metrics: ApiMetrics | undefined;
  if (config.metrics.api) {
    const { registry: metricsRegistry } = createApiMetrics(() => tenantCensus(registry.db));
    metrics = { observe: httpRequestMetrics(metricsRegistry), registry: metricsRegistry };
  }
  const { app, connection } = buildApp(opts, registry, issuer, tracing, metrics);
  const calls = connection && callsAbortedOnClose(connection, app.fetch);
  const server: ServerType = await listen(calls?.call ?? app.fetch, config, tls).catch(async (err: unknown) => {
    migrating.abort();
    await connection?.close();
    await registry.close();
    throw err;
  });
  const stopPurge = config.site ? schedulePurge(registry, config.site.idempotencyWindowMs, log) : () => {};
  let metricsServer: RunningMetrics | undefined;
  if (metrics && config.metrics.api) {
    metricsServer = await serveMetrics(metrics.registry, config.metrics.api).catch(async (err: NodeJS.ErrnoException) => {
      await new Promise<void>((r) => server.close(() => r()));
      migrating.abort();
      await connection?.close();
      await registry.close();
      throw new ConfigError(`METRICS_ADDRESS: cannot listen (${err.code ?? 'error'})`);
    });
  }
  const http = server as unknown as { closeAllConnections(): void };
  const port = (server.address() as AddressInfo).port;
  const host = config.listen.host && config.listen.host !== '0.0.0.0' && config.listen.host !== '::' ? config.listen.host : '127.0.0.1';
  return {
    url: `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    registry,
    metricsUrl: metricsServer?.url,
    close: async () => {
      migrating.abort();
      stopPurge();
      await metricsServer?.close();
      await tracing?.flush();
      await new Promise<void>((r) => {
        server.close(() => r());
        http.closeAllConnections();
      });
      calls?.abortAll();
      await connection?.close();
      await registry.close();
    },
  };
}

/** The operations (on Temporal when the site is configured and none were given) and the app that answers with them. */
function buildApp(
  opts: { config: Config; log: Logger; operations?: TenantOperations },
  registry: Registry,
  issuer: ReturnType<typeof loadSiteIssuer> | undefined,
  tracing: ReturnType<typeof startTracing>,
  metrics: ApiMetrics | undefined,
) {
  const { config, log } = opts;
  let connection: Connection | undefined;
  let operations = opts.operations;
  let publishing: PublishingDeps | undefined;
  let brokerAccounts: BrokerAccountOperations | undefined;
  let runList: RunListOperations | undefined;
  if (!operations && config.site) {
    // Short reconnect backoff: after Temporal restarts, grpc-js's default backoff (up to 120 s)
    // kept the channel UNAVAILABLE ("No connection established") for 30 s and more with the
    // server already back; every call meanwhile answered 503 (issue 31 item 1).
    connection = Connection.lazy({ address: config.env.TEMPORAL_ADDRESS, channelArgs: TEMPORAL_CHANNEL_ARGS });
    const client = new Client({
      connection,
      namespace: config.env.TEMPORAL_NAMESPACE,
      dataConverter: dataConverter(config.codecKey),
      // Carries the request's trace into the workflow (Temporal headers), when tracing is on.
      ...(tracing ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {}),
    });
    operations = tenantOperations({ ...config, site: config.site }, registry, client);
    runList = runListOperations(client, registry.db, deriveKey(config.site.secretsKey, 'run-list-page'));
    publishing = { site: config.site, registry, client, taskQueue: config.env.TEMPORAL_TASK_QUEUE, parkedTimeoutMs: config.parkedRunTimeoutMs, log };
    if (config.site.broker) {
      brokerAccounts = brokerAccountOperations({
        registry,
        client,
        taskQueue: config.env.TEMPORAL_TASK_QUEUE,
        parkedTimeoutMs: config.parkedRunTimeoutMs,
        keys: sealKeys(config.site),
        lost: siteLostAnswers(config.site, registry.db),
      });
    }
  }
  const certificates = config.site && issuer ? certificateOperations({ siteDomain: config.site.domain, registry, issuer, log }) : undefined;
  const app = createApp({
    config,
    registry,
    log,
    build: buildInfo(config),
    operations,
    workloads: publishing && workloadOperations(publishing),
    records: publishing && recordOperations(publishing),
    brokerAccounts,
    certificates,
    devices: publishing && deviceOperations(publishing),
    runList,
    telemetry: { metrics: metrics?.observe, tracing: tracing ? traceRequests() : undefined },
  });
  return { app, connection };
}

/** Listens with the app; a listen error is a ConfigError naming LISTEN_ADDRESS. */
function listen(fetch: ReturnType<typeof createApp>['fetch'], config: Config, tls: ReturnType<typeof loadTls> | undefined): Promise<ServerType> {
  return new Promise<ServerType>((resolve, reject) => {
    // Built here rather than by @hono/node-server's serve(): its `hostname` would be both where to
    // listen and the Host assumed for HTTP/1.0 requests without one, and its errors have no body.
    const listener = jsonRequestListener(fetch);
    const serverOptions = { ...SLOW_CLIENT_BOUNDS, requireHostHeader: false };
    const s = tls ? createHttpsServer({ ...serverOptions, ...tls }, listener) : createHttpServer(serverOptions, listener);
    answerClientErrorsAsJson(s);
    s.listen(config.listen.port, config.listen.host, () => {
      s.off('error', refused);
      resolve(s);
    });
    // Unhandled, a listen error would crash the process with a trace naming the address.
    const refused = (err: NodeJS.ErrnoException) => reject(new ConfigError(`LISTEN_ADDRESS: cannot listen (${err.code ?? 'error'})`));
    s.once('error', refused);
  });
}
