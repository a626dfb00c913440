import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../apps/config/env.js';

/**
 * Configuration rules (spec: Configuration; design §3): defaults, the site switched on by
 * SITE_DOMAIN, and refusals that name the variable but never echo its value.
 */
const required = { OPERATOR_TOKEN: 'op-token-0123456789abcdef', DATABASE_URL: 'postgres://svc:db-password-77@db.internal:5432/registry' };
const key = (bytes: number, fill = 7) => Buffer.alloc(bytes, fill).toString('base64');

/** Every core site setting (required once SITE_DOMAIN is set). */
const coreSite: Record<string, string> = {
  SITE_DOMAIN: 'lab.example.net',
  SITE_TOKEN_KEY: key(32, 1),
  SITE_SECRETS_KEY: key(32, 2),
  SITE_PDNS_URL: 'http://pdns.internal:8081',
  SITE_PDNS_API_KEY: 'pdns-key',
  SITE_DNS_UPDATE_SERVER: 'ns.internal:53',
  SITE_RECURSOR_URL: 'http://recursor.internal:8082',
  SITE_RECURSOR_API_KEY: 'recursor-key',
  SITE_RECURSOR_FORWARD_TO: '10.0.0.53:53',
  SITE_MINIO_URL: 'http://minio.internal:9000',
  SITE_MINIO_ACCESS_KEY: 'minio-admin',
  SITE_MINIO_SECRET_KEY: 'minio-secret',
  SITE_PROXMOX_URL: 'https://pve.internal:8006/api2/json',
  SITE_PROXMOX_TOKEN_ID: 'svc@pve!prov',
  SITE_PROXMOX_TOKEN_SECRET: 'pve-secret',
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error('configuration was accepted');
}

describe('loadConfig defaults', () => {
  const config = loadConfig({ ...required });

  it.each([
    ['LISTEN_ADDRESS is :8080 (every interface, port 8080)', () => config.listen, { host: undefined, port: 8080 }],
    ['LISTEN_ADDRESS keeps its text', () => config.env.LISTEN_ADDRESS, ':8080'],
    ['TEMPORAL_ADDRESS is localhost:7233', () => config.env.TEMPORAL_ADDRESS, 'localhost:7233'],
    ['TEMPORAL_NAMESPACE is default', () => config.env.TEMPORAL_NAMESPACE, 'default'],
    ['TEMPORAL_TASK_QUEUE is provisioning', () => config.env.TEMPORAL_TASK_QUEUE, 'provisioning'],
    ['LOG_LEVEL is info', () => config.env.LOG_LEVEL, 'info'],
    ['no TLS without a certificate', () => config.tls, undefined],
    ['no site without SITE_DOMAIN', () => config.site, undefined],
    ['no payload codec key without a site or TEMPORAL_CODEC_KEY', () => config.codecKey, undefined],
    ['a parked create waits 24 h', () => config.parkedRunTimeoutMs, 24 * 3_600_000],
  ])('%s', (_reason, actual, expected) => {
    expect(actual()).toEqual(expected);
  });

  it('takes the required settings as given', () => {
    expect(config.env.OPERATOR_TOKEN).toBe(required.OPERATOR_TOKEN);
    expect(config.env.DATABASE_URL).toBe(required.DATABASE_URL);
  });
});

describe('loadConfig accepted values', () => {
  it.each([
    ['a host and port', { LISTEN_ADDRESS: '127.0.0.1:9000' }, (c) => c.listen, { host: '127.0.0.1', port: 9000 }],
    ['an IPv6 host in brackets', { LISTEN_ADDRESS: '[::1]:8443' }, (c) => c.listen, { host: '::1', port: 8443 }],
    ['port 0 (any free port)', { LISTEN_ADDRESS: ':0' }, (c) => c.listen, { host: undefined, port: 0 }],
    ['metrics off unless asked for', {}, (c) => c.metrics, { api: undefined, worker: undefined }],
    ['metrics of the API and the worker on their own listeners', { METRICS_ADDRESS: ':9464', WORKER_METRICS_ADDRESS: '127.0.0.1:9465' }, (c) => c.metrics, { api: { host: undefined, port: 9464 }, worker: { host: '127.0.0.1', port: 9465 } }],
    ['an empty variable is an unset one', { LISTEN_ADDRESS: '', TEMPORAL_NAMESPACE: '' }, (c) => [c.listen.port, c.env.TEMPORAL_NAMESPACE], [8080, 'default']],
    ['Temporal settings override the defaults', { TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_NAMESPACE: 'prod', TEMPORAL_TASK_QUEUE: 'q1' }, (c) => [c.env.TEMPORAL_ADDRESS, c.env.TEMPORAL_NAMESPACE, c.env.TEMPORAL_TASK_QUEUE], ['temporal:7233', 'prod', 'q1']],
    ['both TLS files', { TLS_CERT_FILE: '/etc/svc/cert.pem', TLS_KEY_FILE: '/etc/svc/key.pem' }, (c) => c.tls, { certFile: '/etc/svc/cert.pem', keyFile: '/etc/svc/key.pem' }],
    ['a postgresql:// URL with several hosts', { DATABASE_URL: 'postgresql://u:p%40ss@h1:5432,h2:5433/db?sslmode=disable' }, (c) => c.env.DATABASE_URL, 'postgresql://u:p%40ss@h1:5432,h2:5433/db?sslmode=disable'],
    ['a given codec key', { TEMPORAL_CODEC_KEY: key(32, 9) }, (c) => c.codecKey, Buffer.alloc(32, 9)],
    ['SITE_* without SITE_DOMAIN is no site (even when invalid)', { SITE_TOKEN_KEY: 'short', SITE_PDNS_URL: 'nonsense' }, (c) => c.site, undefined],
  ] as [string, Record<string, string>, (c: ReturnType<typeof loadConfig>) => unknown, unknown][])('%s', (_reason, env, actual, expected) => {
    expect(actual(loadConfig({ ...required, ...env }))).toEqual(expected);
  });
});

describe('loadConfig refusals name the variable, never the value', () => {
  it.each([
    ['OPERATOR_TOKEN missing', { DATABASE_URL: required.DATABASE_URL }, 'OPERATOR_TOKEN is required'],
    ['OPERATOR_TOKEN empty', { OPERATOR_TOKEN: '', DATABASE_URL: required.DATABASE_URL }, 'OPERATOR_TOKEN is required'],
    ['DATABASE_URL missing', { OPERATOR_TOKEN: required.OPERATOR_TOKEN }, 'DATABASE_URL is required'],
    ['DATABASE_URL empty', { OPERATOR_TOKEN: required.OPERATOR_TOKEN, DATABASE_URL: '' }, 'DATABASE_URL is required'],
  ])('%s', (_reason, env, message) => {
    expect(refusal(env)).toBe(message);
  });

  // Each value carries a marker that must never show in the message.
  it.each([
    ['LISTEN_ADDRESS not host:port', { LISTEN_ADDRESS: 'nonsense-MARK' }, 'invalid configuration: LISTEN_ADDRESS: must look like host:port or :port'],
    ['LISTEN_ADDRESS port out of range', { LISTEN_ADDRESS: '127.0.0.1:65536' }, 'LISTEN_ADDRESS: port must be at most 65535'],
    ['metrics on the public API port', { LISTEN_ADDRESS: ':8080', METRICS_ADDRESS: '127.0.0.1:8080' }, 'METRICS_ADDRESS: must not be the API port (LISTEN_ADDRESS); metrics are served on a listener of their own'],
    ['WORKER_METRICS_ADDRESS not host:port', { WORKER_METRICS_ADDRESS: 'nonsense-MARK' }, 'invalid configuration: WORKER_METRICS_ADDRESS: must look like host:port or :port'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT not a URL', { OTEL_EXPORTER_OTLP_ENDPOINT: 'nonsense-MARK' }, 'invalid configuration: OTEL_EXPORTER_OTLP_ENDPOINT: Invalid URL'],
    ['OPERATOR_TOKEN too short', { OPERATOR_TOKEN: 'MARK-short' }, 'invalid configuration: OPERATOR_TOKEN: must be at least 16 characters'],
    ['EGRESS_AGENT_TOKEN too short', { EGRESS_AGENT_TOKEN: 'MARK-short' }, 'invalid configuration: EGRESS_AGENT_TOKEN: must be at least 16 characters'],
    ['DATABASE_URL not postgres', { DATABASE_URL: 'mysql://root:MARK@db/x' }, 'invalid configuration: DATABASE_URL: must be a postgres:// connection string'],
    ['DATABASE_URL unparsable (bad escape in the password)', { DATABASE_URL: 'postgres://svc:MARK%zz@db/x' }, 'invalid configuration: DATABASE_URL: must be a valid postgres:// connection string'],
    ['DATABASE_URL unparsable (bad port)', { DATABASE_URL: 'postgres://svc:MARK@db:99999999/x' }, 'invalid configuration: DATABASE_URL: must be a valid postgres:// connection string'],
    ['TEMPORAL_CODEC_KEY not 32 bytes', { TEMPORAL_CODEC_KEY: Buffer.from('MARK-16-bytes-ok').toString('base64') }, 'invalid configuration: TEMPORAL_CODEC_KEY: must be 32 bytes, base64'],
    ['PARKED_RUN_TIMEOUT not a duration', { PARKED_RUN_TIMEOUT: 'MARK' }, 'invalid configuration: PARKED_RUN_TIMEOUT: must be a duration like 30s, 10m, 72h'],
    ['TLS_CERT_FILE without TLS_KEY_FILE', { TLS_CERT_FILE: '/MARK/cert.pem' }, 'TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither'],
    ['TLS_KEY_FILE without TLS_CERT_FILE', { TLS_KEY_FILE: '/MARK/key.pem' }, 'TLS_CERT_FILE and TLS_KEY_FILE go together: set both or neither'],
  ])('%s', (_reason, env, message) => {
    const text = refusal({ ...required, ...env });
    expect(text).toBe(message);
    expect(text).not.toContain('MARK');
  });
});

describe('site configuration', () => {
  it('is present with every core setting, with the documented defaults', () => {
    const site = loadConfig({ ...required, ...coreSite }).site!;
    expect(site.domain).toBe('lab.example.net');
    expect(site.supernet).toBe('10.128.0.0/16');
    expect(site.tokenKey).toEqual(Buffer.alloc(32, 1));
    expect(site.enrollmentLifetimeMs).toBe(72 * 3_600_000);
    expect(site.dns.nameservers).toEqual(['ns1.lab.example.net.']);
  });

  it('derives the payload codec key from the secrets key unless one is given', () => {
    const derived = loadConfig({ ...required, ...coreSite }).codecKey!;
    expect(derived).toHaveLength(32);
    expect(derived).not.toEqual(Buffer.alloc(32, 2));
    expect(loadConfig({ ...required, ...coreSite, TEMPORAL_CODEC_KEY: key(32, 9) }).codecKey).toEqual(Buffer.alloc(32, 9));
  });

  // SITE_DOMAIN switches the site on; from then on a missing core setting stops the service.
  it.each(Object.keys(coreSite).filter((k) => k !== 'SITE_DOMAIN'))('missing %s is refused, naming it', (variable) => {
    const env: Record<string, string> = { ...required, ...coreSite };
    delete env[variable];
    const text = refusal(env);
    expect(text).toMatch(new RegExp(`^invalid site configuration: ${variable}: `));
    // Only the missing one is blamed.
    expect(text.match(/SITE_[A-Z_]+/g)).toEqual([variable]);
  });

  it.each([
    ['SITE_TOKEN_KEY not 32 bytes', { SITE_TOKEN_KEY: Buffer.from('MARK-sixteen-byt').toString('base64') }, 'invalid site configuration: SITE_TOKEN_KEY: must be 32 bytes, base64'],
    ['SITE_SECRETS_KEY not base64 of 32 bytes', { SITE_SECRETS_KEY: 'MARK' }, 'invalid site configuration: SITE_SECRETS_KEY: must be 32 bytes, base64'],
    ['SITE_DOMAIN not a domain', { SITE_DOMAIN: 'MARK' }, 'invalid site configuration: SITE_DOMAIN: must be a DNS domain like lab.example.net'],
    ['SITE_PDNS_URL not a URL', { SITE_PDNS_URL: 'MARK' }, 'invalid site configuration: SITE_PDNS_URL: must be a URL'],
    ['SITE_TENANT_SUPERNET not a /16', { SITE_TENANT_SUPERNET: '10.128.MARK' }, 'invalid site configuration: SITE_TENANT_SUPERNET: must be an IPv4 /16 like 10.128.0.0/16'],
    ['SITE_TENANT_SUPERNET octet over 255', { SITE_TENANT_SUPERNET: '10.300.0.0/16' }, 'invalid site configuration: SITE_TENANT_SUPERNET: must be an IPv4 /16 like 10.128.0.0/16'],
    ['SITE_ENROLLMENT_LIFETIME not a duration', { SITE_ENROLLMENT_LIFETIME: 'MARK' }, 'invalid site configuration: SITE_ENROLLMENT_LIFETIME: must be a duration like 30s, 10m, 72h'],
    ['SITE_TRUST_CLASSES not JSON', { SITE_TRUST_CLASSES: '{MARK' }, 'invalid site configuration: SITE_TRUST_CLASSES: must be JSON'],
  ])('%s', (_reason, env, message) => {
    const text = refusal({ ...required, ...coreSite, ...env });
    expect(text).toBe(message);
    expect(text).not.toContain('MARK');
  });

  it('an empty optional setting takes its default instead of becoming 0', () => {
    const site = loadConfig({ ...required, ...coreSite, SITE_VMID_BASE: '', SITE_VRF_VNI_BASE: '' }).site!;
    expect([site.vmidBase, site.vrfVniBase]).toEqual([10000, 10000]);
  });
});
