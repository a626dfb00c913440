import { trustClassRangeProblems } from '../../core/site-problems.js';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './env.js';

/**
 * Configuration rules (spec: Configuration; design §3): defaults, the site switched on by
 * SITE_DOMAIN, and refusals that name the variable but never echo its value.
 */
const required = { OPERATOR_TOKEN: 'op-token-0123456789abcdef', DATABASE_URL: 'postgres://svc:db-password-77@db.internal:5432/registry' };
const PEM = (label: string) => `-----BEGIN CERTIFICATE-----\nMIIB${label}\n-----END CERTIFICATE-----\n`;
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
    ['the worker is a version of the deployment tenant-provisioning', () => config.env.TEMPORAL_WORKER_DEPLOYMENT, 'tenant-provisioning'],
    ["its build id is the build's commit unless given", () => config.env.TEMPORAL_WORKER_BUILD_ID, undefined],
    ['the worker keeps running when its version has drained', () => config.env.TEMPORAL_WORKER_STOP_WHEN_DRAINED, 'false'],
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
    [
      'metrics of the API and the worker on their own listeners',
      { METRICS_ADDRESS: ':9464', WORKER_METRICS_ADDRESS: '127.0.0.1:9465' },
      (c) => c.metrics,
      { api: { host: undefined, port: 9464 }, worker: { host: '127.0.0.1', port: 9465 } },
    ],
    ['an empty variable is an unset one', { LISTEN_ADDRESS: '', TEMPORAL_NAMESPACE: '' }, (c) => [c.listen.port, c.env.TEMPORAL_NAMESPACE], [8080, 'default']],
    [
      'Temporal settings override the defaults',
      { TEMPORAL_ADDRESS: 'temporal:7233', TEMPORAL_NAMESPACE: 'prod', TEMPORAL_TASK_QUEUE: 'q1' },
      (c) => [c.env.TEMPORAL_ADDRESS, c.env.TEMPORAL_NAMESPACE, c.env.TEMPORAL_TASK_QUEUE],
      ['temporal:7233', 'prod', 'q1'],
    ],
    [
      'both TLS files',
      { TLS_CERT_FILE: '/etc/svc/cert.pem', TLS_KEY_FILE: '/etc/svc/key.pem' },
      (c) => c.tls,
      { certFile: '/etc/svc/cert.pem', keyFile: '/etc/svc/key.pem' },
    ],
    [
      'a postgresql:// URL with several hosts',
      { DATABASE_URL: 'postgresql://u:p%40ss@h1:5432,h2:5433/db?sslmode=disable' },
      (c) => c.env.DATABASE_URL,
      'postgresql://u:p%40ss@h1:5432,h2:5433/db?sslmode=disable',
    ],
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
    [
      'metrics on the public API port',
      { LISTEN_ADDRESS: ':8080', METRICS_ADDRESS: '127.0.0.1:8080' },
      'METRICS_ADDRESS: must not be the API port (LISTEN_ADDRESS); metrics are served on a listener of their own',
    ],
    [
      'WORKER_METRICS_ADDRESS not host:port',
      { WORKER_METRICS_ADDRESS: 'nonsense-MARK' },
      'invalid configuration: WORKER_METRICS_ADDRESS: must look like host:port or :port',
    ],
    [
      'OTEL_EXPORTER_OTLP_ENDPOINT not a URL',
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'nonsense-MARK' },
      'invalid configuration: OTEL_EXPORTER_OTLP_ENDPOINT: Invalid URL',
    ],
    ['OPERATOR_TOKEN too short', { OPERATOR_TOKEN: 'MARK-short' }, 'invalid configuration: OPERATOR_TOKEN: must be at least 16 characters'],
    ['EGRESS_AGENT_TOKEN too short', { EGRESS_AGENT_TOKEN: 'MARK-short' }, 'invalid configuration: EGRESS_AGENT_TOKEN: must be at least 16 characters'],
    ['CODEC_TOKEN too short', { CODEC_TOKEN: 'MARK-short' }, 'invalid configuration: CODEC_TOKEN: must be at least 16 characters'],
    [
      'CODEC_TOKEN the operator token',
      { OPERATOR_TOKEN: 'MARK-one-token-0123456789', CODEC_TOKEN: 'MARK-one-token-0123456789' },
      'CODEC_TOKEN: must differ from OPERATOR_TOKEN and EGRESS_AGENT_TOKEN',
    ],
    [
      'CODEC_TOKEN the egress agent token',
      { EGRESS_AGENT_TOKEN: 'MARK-one-token-0123456789', CODEC_TOKEN: 'MARK-one-token-0123456789' },
      'CODEC_TOKEN: must differ from OPERATOR_TOKEN and EGRESS_AGENT_TOKEN',
    ],
    ['DATABASE_URL not postgres', { DATABASE_URL: 'mysql://root:MARK@db/x' }, 'invalid configuration: DATABASE_URL: must be a postgres:// connection string'],
    [
      'DATABASE_URL unparsable (bad escape in the password)',
      { DATABASE_URL: 'postgres://svc:MARK%zz@db/x' },
      'invalid configuration: DATABASE_URL: must be a valid postgres:// connection string',
    ],
    [
      'DATABASE_URL unparsable (bad port)',
      { DATABASE_URL: 'postgres://svc:MARK@db:99999999/x' },
      'invalid configuration: DATABASE_URL: must be a valid postgres:// connection string',
    ],
    [
      'TEMPORAL_CODEC_KEY not 32 bytes',
      { TEMPORAL_CODEC_KEY: Buffer.from('MARK-16-bytes-ok').toString('base64') },
      'invalid configuration: TEMPORAL_CODEC_KEY: must be 32 bytes, base64',
    ],
    [
      'TEMPORAL_WORKER_DEPLOYMENT with a separator Temporal reserves',
      { TEMPORAL_WORKER_DEPLOYMENT: 'MARK.prod' },
      "invalid configuration: TEMPORAL_WORKER_DEPLOYMENT: must be a name without spaces, '.' or ':' (Temporal reserves them)",
    ],
    [
      'TEMPORAL_WORKER_BUILD_ID of two words',
      { TEMPORAL_WORKER_BUILD_ID: 'MARK two' },
      'invalid configuration: TEMPORAL_WORKER_BUILD_ID: must be one word of at most 255 characters',
    ],
    [
      'TEMPORAL_WORKER_STOP_WHEN_DRAINED not true or false',
      { TEMPORAL_WORKER_STOP_WHEN_DRAINED: 'MARK' },
      'invalid configuration: TEMPORAL_WORKER_STOP_WHEN_DRAINED: Invalid option: expected one of "true"|"false"',
    ],
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
    [
      'SITE_TOKEN_KEY not 32 bytes',
      { SITE_TOKEN_KEY: Buffer.from('MARK-sixteen-byt').toString('base64') },
      'invalid site configuration: SITE_TOKEN_KEY: must be 32 bytes, base64',
    ],
    ['SITE_SECRETS_KEY not base64 of 32 bytes', { SITE_SECRETS_KEY: 'MARK' }, 'invalid site configuration: SITE_SECRETS_KEY: must be 32 bytes, base64'],
    ['SITE_DOMAIN not a domain', { SITE_DOMAIN: 'MARK' }, 'invalid site configuration: SITE_DOMAIN: must be a DNS domain like lab.example.net'],
    ['SITE_PDNS_URL not a URL', { SITE_PDNS_URL: 'MARK' }, 'invalid site configuration: SITE_PDNS_URL: must be a URL'],
    [
      'SITE_TENANT_SUPERNET not a /16',
      { SITE_TENANT_SUPERNET: '10.128.MARK' },
      'invalid site configuration: SITE_TENANT_SUPERNET: must be an IPv4 /16 like 10.128.0.0/16',
    ],
    [
      'SITE_TENANT_SUPERNET octet over 255',
      { SITE_TENANT_SUPERNET: '10.300.0.0/16' },
      'invalid site configuration: SITE_TENANT_SUPERNET: must be an IPv4 /16 like 10.128.0.0/16',
    ],
    [
      'SITE_ENROLLMENT_LIFETIME not a duration',
      { SITE_ENROLLMENT_LIFETIME: 'MARK' },
      'invalid site configuration: SITE_ENROLLMENT_LIFETIME: must be a duration like 30s, 10m, 72h',
    ],
    ['SITE_TRUST_CLASSES not JSON', { SITE_TRUST_CLASSES: '{MARK' }, 'invalid site configuration: SITE_TRUST_CLASSES: must be JSON'],
  ])('%s', (_reason, env, message) => {
    const text = refusal({ ...required, ...coreSite, ...env });
    expect(text).toBe(message);
    expect(text).not.toContain('MARK');
  });

  // Issue 16 item 6: values that each parse but cannot work, and backends configured by halves,
  // used to start the service (tenants sharing VXLAN ids, a backend silently off).
  const ca = '-----BEGIN CERTIFICATE-----MARK',
    caKey = '-----BEGIN PRIVATE KEY-----MARK';
  it.each([
    [
      'VRF and VNet VNI ranges overlap',
      { SITE_VRF_VNI_BASE: '100000', SITE_VNET_VNI_BASE: '99990' },
      /^invalid site configuration: SITE_VNET_VNI_BASE: .*overlap/,
    ],
    ['VNet VNI base near 2^24', { SITE_VNET_VNI_BASE: '16777000' }, /^invalid site configuration: SITE_VNET_VNI_BASE: .*within 1\.\.16777215/],
    ['VRF VNI base near 2^24', { SITE_VRF_VNI_BASE: '16777200' }, /^invalid site configuration: SITE_VRF_VNI_BASE: .*within 1\.\.16777215/],
    [
      'a reversed trust-class range',
      { SITE_TRUST_CLASSES: JSON.stringify({ iot: { ssid: 'MARK', vlan: 'iot', range: '10.20.0.250-10.20.0.10' } }) },
      /^invalid site configuration: SITE_TRUST_CLASSES: class iot: range must be/,
    ],
    ['SITE_RECONCILE_INTERVAL=0', { SITE_RECONCILE_INTERVAL: '0' }, /^invalid site configuration: SITE_RECONCILE_INTERVAL: must be longer than zero$/],
    [
      'SITE_ISOLATION_CHECK_INTERVAL=30s',
      { SITE_ISOLATION_CHECK_INTERVAL: '30s' },
      /^invalid site configuration: SITE_ISOLATION_CHECK_INTERVAL: must be at least 1m$/,
    ],
    [
      'SITE_ISOLATION_CHECK_INTERVAL=never',
      { SITE_ISOLATION_CHECK_INTERVAL: 'never' },
      /^invalid site configuration: SITE_ISOLATION_CHECK_INTERVAL: must be a duration like 30s, 10m, 72h, or off$/,
    ],
    ['SITE_ENROLLMENT_LIFETIME=0s', { SITE_ENROLLMENT_LIFETIME: '0s' }, /^invalid site configuration: SITE_ENROLLMENT_LIFETIME: must be longer than zero$/],
    ['SITE_BACKEND_TIMEOUT=0ms', { SITE_BACKEND_TIMEOUT: '0ms' }, /^invalid site configuration: SITE_BACKEND_TIMEOUT: must be longer than zero$/],
    ['SITE_CA_CERT without SITE_CA_KEY', { SITE_CA_CERT: ca }, /^invalid site configuration: SITE_CA_KEY: required when SITE_CA_CERT is set$/],
    ['SITE_CA_KEY without SITE_CA_CERT', { SITE_CA_KEY: caKey }, /^invalid site configuration: SITE_CA_CERT: required when SITE_CA_KEY is set$/],
    [
      'a developer SSID without a VLAN',
      { SITE_WIFI_URL: 'http://unifi.internal', SITE_WIFI_API_KEY: 'MARK', SITE_WIFI_DEVELOPER_SSID: 'dev' },
      /^invalid site configuration: SITE_WIFI_DEVELOPER_VLAN: required when SITE_WIFI_DEVELOPER_SSID is set$/,
    ],
    [
      'a bound developer WLAN without the developer network',
      { SITE_WIFI_URL: 'http://unifi.internal', SITE_WIFI_API_KEY: 'MARK', SITE_WIFI_DEVELOPER_BOUND_SSID: 'dev-bound' },
      /^invalid site configuration: SITE_WIFI_DEVELOPER_SSID: required when SITE_WIFI_DEVELOPER_BOUND_SSID is set$/,
    ],
    [
      'a bound developer WLAN that is the developer WLAN',
      {
        SITE_WIFI_URL: 'http://unifi.internal',
        SITE_WIFI_API_KEY: 'MARK',
        SITE_WIFI_DEVELOPER_SSID: 'dev',
        SITE_WIFI_DEVELOPER_VLAN: 'dev',
        SITE_WIFI_DEVELOPER_BOUND_SSID: 'dev',
      },
      /^invalid site configuration: SITE_WIFI_DEVELOPER_BOUND_SSID: must be a WLAN of its own/,
    ],
    [
      'a developer VLAN without an SSID',
      { SITE_WIFI_URL: 'http://unifi.internal', SITE_WIFI_API_KEY: 'MARK', SITE_WIFI_DEVELOPER_VLAN: 'dev' },
      /^invalid site configuration: SITE_WIFI_DEVELOPER_SSID: required when SITE_WIFI_DEVELOPER_VLAN is set$/,
    ],
    [
      'a Wi-Fi URL without its API key or a login',
      { SITE_WIFI_URL: 'http://unifi.internal/MARK' },
      /^invalid site configuration: SITE_WIFI_API_KEY: required when SITE_WIFI_URL is set, unless SITE_WIFI_USERNAME and SITE_WIFI_PASSWORD are$/,
    ],
    [
      'a self-hosted Network application with only an API key',
      { SITE_WIFI_URL: 'http://unifi.internal', SITE_WIFI_DEPLOYMENT: 'self-hosted', SITE_WIFI_API_KEY: 'MARK' },
      /^invalid site configuration: SITE_WIFI_USERNAME: required when SITE_WIFI_DEPLOYMENT is self-hosted \(it has no API keys\)$/,
    ],
    [
      'a Wi-Fi username without its password',
      { SITE_WIFI_URL: 'http://unifi.internal', SITE_WIFI_USERNAME: 'MARK' },
      /^invalid site configuration: SITE_WIFI_PASSWORD: required when SITE_WIFI_USERNAME is set$/,
    ],
    [
      'an unknown Wi-Fi deployment',
      { SITE_WIFI_URL: 'http://unifi.internal', SITE_WIFI_API_KEY: 'k', SITE_WIFI_DEPLOYMENT: 'cloudMARK' },
      /^invalid site configuration: SITE_WIFI_DEPLOYMENT: /,
    ],
    [
      'a broker URL without its admin password',
      { SITE_BROKER_URL: 'mqtt://broker.internal:1883/MARK' },
      /^invalid site configuration: SITE_BROKER_ADMIN_PASSWORD: required when SITE_BROKER_URL is set$/,
    ],
    [
      'a Grafana URL without its admin password',
      { SITE_GRAFANA_URL: 'http://grafana.internal/MARK', SITE_LOG_URL: 'http://127.0.0.1:2019', SITE_LOG_ENDPOINT: 'http://logs.internal' },
      /^invalid site configuration: SITE_GRAFANA_ADMIN_PASSWORD: required when SITE_GRAFANA_URL is set$/,
    ],
    [
      'a DHCP user without its password',
      { SITE_DHCP_URL: 'http://kea.internal', SITE_DHCP_USER: 'MARK' },
      /^invalid site configuration: SITE_DHCP_PASSWORD: required when SITE_DHCP_USER is set$/,
    ],
    ['a reserved name that is no tenant name', { SITE_RESERVED_NAMES: 'www,MARK.x' }, /^invalid site configuration: SITE_RESERVED_NAMES: /],
  ])('%s stops the service, naming the variable', (_reason, env, message) => {
    const text = refusal({ ...required, ...coreSite, ...env });
    expect(text).toMatch(message);
    expect(text).not.toContain('MARK');
  });

  it('accepts a complete backend and a well-formed trust-class range', () => {
    const site = loadConfig({
      ...required,
      ...coreSite,
      SITE_WIFI_URL: 'http://unifi.internal',
      SITE_WIFI_API_KEY: 'k',
      SITE_WIFI_DEVELOPER_SSID: 'dev',
      SITE_WIFI_DEVELOPER_VLAN: 'dev',
      SITE_TRUST_CLASSES: JSON.stringify({ iot: { ssid: 's', vlan: 'iot', range: '10.20.0.10-10.20.0.250' } }),
    }).site!;
    expect(site.wifi?.developer).toEqual({ ssid: 'dev', vlan: 'dev' });
    expect(site.wifi).toMatchObject({ deployment: 'unifi-os', apiKey: 'k' });
  });

  it('accepts a self-hosted Network application with a login', () => {
    const site = loadConfig({
      ...required,
      ...coreSite,
      SITE_WIFI_URL: 'https://unifi.internal:8443',
      SITE_WIFI_DEPLOYMENT: 'self-hosted',
      SITE_WIFI_USERNAME: 'svc',
      SITE_WIFI_PASSWORD: 'pw',
    }).site!;
    expect(site.wifi).toMatchObject({ deployment: 'self-hosted', username: 'svc', password: 'pw' });
    expect(site.wifi?.apiKey).toBeUndefined();
  });

  // Issue 16 item 4: names the site itself uses under its domain are no tenant's.
  it('reserves the nameservers, the site hosts under the domain and SITE_RESERVED_NAMES', () => {
    const site = loadConfig({
      ...required,
      ...coreSite,
      SITE_DNS_NAMESERVERS: 'ns1.lab.example.net.,ns2.lab.example.net,ns.other.org.',
      SITE_DNS_UPDATE_SERVER: 'dnsupd.lab.example.net:53',
      SITE_RESERVED_NAMES: 'www, api',
    }).site!;
    expect([...site.reservedNames].sort()).toEqual(['api', 'dnsupd', 'ns1', 'ns2', 'www']);
    expect([...loadConfig({ ...required, ...coreSite }).site!.reservedNames]).toEqual(['ns1']);
  });

  it('the isolation check runs hourly unless the site says another interval or off', () => {
    const at = (v?: string) =>
      loadConfig({ ...required, ...coreSite, ...(v === undefined ? {} : { SITE_ISOLATION_CHECK_INTERVAL: v }) }).site!.isolationCheckIntervalMs;
    expect([at(), at('15m'), at('off')]).toEqual([3_600_000, 900_000, undefined]);
  });

  it('hypervisor tasks are bounded for minutes (a full clone), MinIO signs for us-east-1, no private CA', () => {
    const site = loadConfig({ ...required, ...coreSite }).site!;
    expect(site.hypervisorTaskTimeoutMs).toBe(30 * 60_000);
    expect(site.state.region).toBe('us-east-1');
    expect([site.proxmox.ca, site.dns.ca, site.state.ca, site.resolver.ca]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('a site-wide CA bundle applies to every backend; a per-backend one overrides it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-ca-'));
    const site1 = join(dir, 'site.pem');
    const pve = join(dir, 'pve.pem');
    writeFileSync(site1, PEM('site'));
    writeFileSync(pve, PEM('pve'));
    try {
      const site = loadConfig({
        ...required,
        ...coreSite,
        SITE_BACKEND_CA_FILE: site1,
        SITE_PROXMOX_CA_FILE: pve,
        SITE_MINIO_REGION: 'eu-central-1',
        SITE_HYPERVISOR_TASK_TIMEOUT: '45m',
      }).site!;
      expect([site.dns.ca, site.resolver.ca, site.state.ca]).toEqual([PEM('site'), PEM('site'), PEM('site')]);
      expect(site.proxmox.ca).toBe(PEM('pve'));
      expect(site.state.region).toBe('eu-central-1');
      expect(site.hypervisorTaskTimeoutMs).toBe(45 * 60_000);
      expect(site).toMatchObject({ sweepConcurrency: 8, backendCallsPerSecond: 100 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'SITE_HYPERVISOR_TASK_TIMEOUT not a duration',
      { SITE_HYPERVISOR_TASK_TIMEOUT: 'MARK' },
      'invalid site configuration: SITE_HYPERVISOR_TASK_TIMEOUT: must be a duration like 30s, 10m, 72h',
    ],
    [
      'SITE_HYPERVISOR_TASK_TIMEOUT too short for a clone',
      { SITE_HYPERVISOR_TASK_TIMEOUT: '5s' },
      'invalid site configuration: SITE_HYPERVISOR_TASK_TIMEOUT: must be between 10s and 2h',
    ],
    [
      'SITE_HYPERVISOR_TASK_TIMEOUT over the activity backstop',
      { SITE_HYPERVISOR_TASK_TIMEOUT: '3h' },
      'invalid site configuration: SITE_HYPERVISOR_TASK_TIMEOUT: must be between 10s and 2h',
    ],
    [
      "SITE_VMID_BASE below Proxmox VE's VMIDs",
      { SITE_VMID_BASE: '20' },
      "invalid site configuration: SITE_VMID_BASE: must keep every workload VMID (base + 40 x index + ordinal) within Proxmox VE's 100..999999999",
    ],
    [
      'SITE_VMID_BASE past them for the last tenant',
      { SITE_VMID_BASE: '999998000' },
      "invalid site configuration: SITE_VMID_BASE: must keep every workload VMID (base + 40 x index + ordinal) within Proxmox VE's 100..999999999",
    ],
    [
      'a log store without the endpoint tenants are handed',
      { SITE_LOG_URL: 'http://127.0.0.1:2019' },
      'invalid site configuration: SITE_LOG_ENDPOINT: required when SITE_LOG_URL is set',
    ],
    [
      'dashboards without a log store to read',
      { SITE_GRAFANA_URL: 'http://grafana.internal', SITE_GRAFANA_ADMIN_PASSWORD: 'MARK-pw' },
      'invalid site configuration: SITE_LOG_URL: required when SITE_GRAFANA_URL is set',
    ],
    [
      'a trust class with an SSID and no VLAN',
      { SITE_TRUST_CLASSES: JSON.stringify({ sensor: { ssid: 'MARK-net' } }) },
      'invalid site configuration: SITE_TRUST_CLASSES: class sensor: ssid and vlan go together (a Wi-Fi network and the VLAN its keys place clients on)',
    ],
    [
      'a trust class with a VLAN and no SSID',
      { SITE_TRUST_CLASSES: JSON.stringify({ sensor: { vlan: 'MARK-vlan' } }) },
      'invalid site configuration: SITE_TRUST_CLASSES: class sensor: ssid and vlan go together (a Wi-Fi network and the VLAN its keys place clients on)',
    ],
    [
      'a developer network without a wireless controller',
      { SITE_WIFI_DEVELOPER_SSID: 'MARK-dev', SITE_WIFI_DEVELOPER_VLAN: 'dev' },
      'invalid site configuration: SITE_WIFI_URL: required when SITE_WIFI_DEVELOPER_SSID is set',
    ],
    [
      'SITE_SWEEP_CONCURRENCY zero: the sweep would reconcile nothing',
      { SITE_SWEEP_CONCURRENCY: '0' },
      'invalid site configuration: SITE_SWEEP_CONCURRENCY: must be between 1 and 62',
    ],
    [
      'SITE_SWEEP_CONCURRENCY over the tenants a site can hold',
      { SITE_SWEEP_CONCURRENCY: '63' },
      'invalid site configuration: SITE_SWEEP_CONCURRENCY: must be between 1 and 62',
    ],
    [
      'SITE_BACKEND_CALLS_PER_SECOND beyond any backend',
      { SITE_BACKEND_CALLS_PER_SECOND: '20000' },
      'invalid site configuration: SITE_BACKEND_CALLS_PER_SECOND: must be between 0 and 10000',
    ],
    [
      'SITE_DHCP_CONTROL neither agent nor server',
      { SITE_DHCP_CONTROL: 'MARK' },
      'invalid site configuration: SITE_DHCP_CONTROL: must be agent (Kea 2 control agent) or server (Kea 3 kea-dhcp4 HTTP socket)',
    ],
    [
      'SITE_DHCP_PARTNER_URLS holding something not a URL',
      { SITE_DHCP_URL: 'http://kea-a.internal:8000/', SITE_DHCP_PARTNER_URLS: 'http://kea-b.internal:8000/, MARK' },
      'invalid site configuration: SITE_DHCP_PARTNER_URLS: must be URLs separated by commas',
    ],
    [
      'SITE_MINIO_REGION not a region',
      { SITE_MINIO_REGION: 'MARK region' },
      'invalid site configuration: SITE_MINIO_REGION: must be a region name like us-east-1',
    ],
    ['SITE_PROXMOX_CA_FILE unreadable', { SITE_PROXMOX_CA_FILE: '/MARK/none.pem' }, 'invalid site configuration: SITE_PROXMOX_CA_FILE: cannot read the file'],
    [
      'SITE_BACKEND_CA_FILE without a certificate',
      { SITE_BACKEND_CA_FILE: '/etc/hostname' },
      'invalid site configuration: SITE_BACKEND_CA_FILE: must be a file of PEM certificates',
    ],
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

describe("trust classes' ranges against the device network (--check-backends reads it from Kea)", () => {
  // A range outside the network 10.200.0.0/24 is named with its class.
  const outside = (reason: string, trustClass: string, range: string): [string, Record<string, { range?: string }>, string, string[]] => [
    reason,
    { [trustClass]: { range } },
    '10.200.0.0/24',
    [`trust class ${trustClass}: range ${range} is not inside the device network 10.200.0.0/24`],
  ];
  it.each<[string, Record<string, { range?: string }>, string, string[]]>([
    ['inside, clear of network and broadcast', { sensor: { range: '10.200.0.64-10.200.0.127' } }, '10.200.0.0/24', []],
    ['a class without a range has nothing to fit', { wired: {} }, '10.200.0.0/24', []],
    outside('reaching past the subnet', 'sensor', '10.200.0.200-10.200.1.10'),
    outside('holding the broadcast address', 'camera', '10.200.0.250-10.200.0.255'),
    outside('holding the network address', 'camera', '10.200.0.0-10.200.0.9'),
    outside('another network altogether', 'sensor', '192.168.1.10-192.168.1.20'),
    [
      'a subnet that is no CIDR',
      { sensor: { range: '10.200.0.64-10.200.0.127' } },
      'ten-two-hundred',
      ["the device network's subnet ten-two-hundred is no IPv4 CIDR"],
    ],
  ])('%s', (_reason, classes, subnet, want) => {
    expect(trustClassRangeProblems(classes, subnet)).toEqual(want);
  });
});

/** The secondaries a site declares (issue 45 item 2): addresses only, and a catalog only with them. */
describe('SITE_DNS_SECONDARIES and SITE_DNS_CATALOG', () => {
  it('without secondaries there is no catalog: the zones stay Native', () => {
    const dns = loadConfig({ ...required, ...coreSite, SITE_DNS_CATALOG: 'cat.lab.example.net' }).site!.dns;
    expect(dns).toMatchObject({ secondaries: [], catalog: undefined });
  });

  it('takes addresses with and without a port; the catalog defaults under the site domain', () => {
    const dns = loadConfig({ ...required, ...coreSite, SITE_DNS_SECONDARIES: '192.0.2.54, 192.0.2.55:5300,[2001:db8::53]:53,2001:db8::54' }).site!.dns;
    expect(dns.secondaries).toEqual(['192.0.2.54:53', '192.0.2.55:5300', '[2001:db8::53]:53', '[2001:db8::54]:53']);
    expect(dns.catalog).toBe('catalog.lab.example.net.');
    expect(loadConfig({ ...required, ...coreSite, SITE_DNS_SECONDARIES: '192.0.2.54', SITE_DNS_CATALOG: 'Zones.Lab.Example.Net' }).site!.dns.catalog).toBe(
      'zones.lab.example.net.',
    );
  });

  it('refuses a name where an address belongs, naming the variable', () => {
    expect(() => loadConfig({ ...required, ...coreSite, SITE_DNS_SECONDARIES: 'ns2.lab.example.net' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...required, ...coreSite, SITE_DNS_SECONDARIES: 'ns2.lab.example.net' })).toThrow(/SITE_DNS_SECONDARIES/);
    expect(() => loadConfig({ ...required, ...coreSite, SITE_DNS_SECONDARIES: '192.0.2.1:99999' })).toThrow(/SITE_DNS_SECONDARIES/);
  });
});
