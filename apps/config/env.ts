import { z } from 'zod';
import { parseDuration } from '../../core/duration.js';
import { siteSchema, type Site } from '../../activities/site.js';
import { belowNodeFloor } from './node-floor.js';

export type { Site };

/**
 * Configuration comes from the environment only (spec: Configuration; design §3). Every variable
 * is validated when the process starts; a bad value stops it with a message naming the variable,
 * never its value.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const listen = z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[^:\s]*):\d{1,5}$/, 'must look like host:port or :port');

const base64Key = z.string().refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64');

const duration = z.string().refine((v) => parseDuration(v) !== undefined, 'must be a duration like 30s, 10m, 72h');

/** Parses the URL as postgres.js does (its parseUrl), so what it would throw on at start is refused here. */
function parsesAsConnectionString(v: string): boolean {
  try {
    const authority = v.slice(v.indexOf('://') + 3).split(/[?/]/)[0]!;
    const host = decodeURIComponent(authority.slice(authority.indexOf('@') + 1));
    const u = new URL(v.replace(host, host.split(',')[0]!));
    decodeURIComponent(u.username);
    decodeURIComponent(u.password);
    return true;
  } catch {
    return false;
  }
}

export const serviceSchema = z.object({
  OPERATOR_TOKEN: z.string().min(16, 'must be at least 16 characters'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .refine(parsesAsConnectionString, 'must be a valid postgres:// connection string'),
  EGRESS_AGENT_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Decode-only: `/codec/encode` and `/codec/decode` and nothing else, for engineers reading runs. */
  CODEC_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LISTEN_ADDRESS: listen.default(':8080'),
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  TEMPORAL_ADDRESS: z.string().default('localhost:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('provisioning'),
  /** AES-256-GCM key of the payload codec; derived from SITE_SECRETS_KEY when absent. */
  TEMPORAL_CODEC_KEY: base64Key.optional(),
  /** Origin of the Temporal UI allowed to call the codec endpoint (CORS). */
  TEMPORAL_UI_ORIGIN: z.string().url().optional(),
  /** The Worker Deployment whose versions the worker's releases are (docs/upgrading.md). */
  TEMPORAL_WORKER_DEPLOYMENT: z
    .string()
    .regex(/^[^.:\s]{1,255}$/, "must be a name without spaces, '.' or ':' (Temporal reserves them)")
    .default('tenant-provisioning'),
  /** The worker's version within it; unset, the build's commit (what `/version` answers). */
  TEMPORAL_WORKER_BUILD_ID: z
    .string()
    .regex(/^\S{1,255}$/, 'must be one word of at most 255 characters')
    .optional(),
  /** The worker stops by itself once no run needs its version (a release's workers kept beside the next one's). */
  TEMPORAL_WORKER_STOP_WHEN_DRAINED: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SERVICE_VERSION: z.string().optional(),
  SERVICE_COMMIT: z.string().optional(),
  SERVICE_BUILT: z.string().optional(),
  /** How long a create parked on a failed step waits for its repeat before the run ends. */
  PARKED_RUN_TIMEOUT: duration.default('24h'),
  /** Where the API serves Prometheus metrics (`/metrics`); off when unset. Never the API's own port. */
  METRICS_ADDRESS: listen.optional(),
  /** Where the worker serves Prometheus metrics (`/metrics`, Temporal's included); off when unset. */
  WORKER_METRICS_ADDRESS: listen.optional(),
  /** OTLP/HTTP collector (the OpenTelemetry standard variable); traces are exported when set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
});

export type ServiceEnv = z.infer<typeof serviceSchema>;

export interface Config {
  env: ServiceEnv;
  /** Absent when no site is configured: tenant routes then answer 501. */
  site: Site | undefined;
  tls: { certFile: string; keyFile: string } | undefined;
  listen: { host: string | undefined; port: number };
  codecKey: Buffer | undefined;
  parkedRunTimeoutMs: number;
  /** Metrics listeners of the API and the worker; undefined is off. */
  metrics: { api: ListenAddress | undefined; worker: ListenAddress | undefined };
}

export interface ListenAddress {
  host: string | undefined;
  port: number;
}

function describe(issues: z.core.$ZodIssue[]): string {
  // Name the variable and the rule; never echo the value.
  return issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`).join('; ');
}

export function loadConfig(raw: NodeJS.ProcessEnv = process.env): Config {
  // Both entries pass here first: a site starting the compiled service on its system Node hears why at once.
  const tooOld = belowNodeFloor(process.versions.node);
  if (tooOld !== undefined) throw new ConfigError(tooOld);
  // An empty variable is an unset one (`${VAR:-}` in compose files and shells).
  const source = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
  for (const required of ['OPERATOR_TOKEN', 'DATABASE_URL'] as const) {
    if (!source[required]) throw new ConfigError(`${required} is required`);
  }
  const parsed = serviceSchema.safeParse(source);
  if (!parsed.success) throw new ConfigError(`invalid configuration: ${describe(parsed.error.issues)}`);
  const env = parsed.data;
  if (Boolean(env.TLS_CERT_FILE) !== Boolean(env.TLS_KEY_FILE)) {
    throw new ConfigError('TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither');
  }
  // One token, one role: a codec token equal to another would carry that one's routes too.
  if (env.CODEC_TOKEN && (env.CODEC_TOKEN === env.OPERATOR_TOKEN || env.CODEC_TOKEN === env.EGRESS_AGENT_TOKEN)) {
    throw new ConfigError('CODEC_TOKEN: must differ from OPERATOR_TOKEN and EGRESS_AGENT_TOKEN');
  }
  const site = loadSite(source);
  const listenAt = parseListen('LISTEN_ADDRESS', env.LISTEN_ADDRESS)!;
  const metrics = {
    api: parseListen('METRICS_ADDRESS', env.METRICS_ADDRESS),
    worker: parseListen('WORKER_METRICS_ADDRESS', env.WORKER_METRICS_ADDRESS),
  };
  if (metrics.api && metrics.api.port !== 0 && metrics.api.port === listenAt.port) {
    throw new ConfigError('METRICS_ADDRESS: must not be the API port (LISTEN_ADDRESS); metrics are served on a listener of their own');
  }
  const codecKey = env.TEMPORAL_CODEC_KEY
    ? Buffer.from(env.TEMPORAL_CODEC_KEY, 'base64')
    : site
      ? deriveKey(site.secretsKey, 'temporal-payload-codec')
      : undefined;
  return {
    env,
    site,
    tls: env.TLS_CERT_FILE && env.TLS_KEY_FILE ? { certFile: env.TLS_CERT_FILE, keyFile: env.TLS_KEY_FILE } : undefined,
    listen: listenAt,
    codecKey,
    parkedRunTimeoutMs: parseDuration(env.PARKED_RUN_TIMEOUT)!,
    metrics,
  };
}

function parseListen(variable: string, addr: string | undefined): ListenAddress | undefined {
  if (addr === undefined) return undefined;
  const i = addr.lastIndexOf(':');
  const port = Number(addr.slice(i + 1));
  if (port > 65535) throw new ConfigError(`${variable}: port must be at most 65535`);
  return { host: addr.slice(0, i).replace(/^\[|\]$/g, '') || undefined, port };
}

function loadSite(source: NodeJS.ProcessEnv): Site | undefined {
  // The site is configured when its domain is; from then on every core setting is required.
  if (!source.SITE_DOMAIN) return undefined;
  const parsed = siteSchema.safeParse(source);
  if (!parsed.success) throw new ConfigError(`invalid site configuration: ${describe(parsed.error.issues)}`);
  return parsed.data;
}

import { hkdfSync } from 'node:crypto';
export function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, 32));
}
