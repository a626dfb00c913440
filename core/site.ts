import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { fingerprintForm } from './fingerprint.js';
import { parseDuration } from './duration.js';
import { siteProblems } from './site-problems.js';

/**
 * The site: address plan, identifier bases, and each backend's URL and credential (design §3, §7).
 * Core settings (domain, address plan, keys, DNS, resolver, state store, fabric) are required once
 * SITE_DOMAIN is set. Optional backends are off until their URL is set; their routes then refuse
 * with a reason.
 */
const key32 = z
  .string()
  .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64')
  .transform((v) => Buffer.from(v, 'base64'));
const int = (def: number) => z.coerce.number().int().nonnegative().default(def);
const url = z.string().url('must be a URL');
// Zero is refused: a zero lifetime admits nobody, a zero interval or timeout spins or fails every call.
const duration = (def: string) =>
  z
    .string()
    .default(def)
    .refine((v) => parseDuration(v) !== undefined, 'must be a duration like 30s, 10m, 72h')
    .refine((v) => (parseDuration(v) ?? 1) > 0, 'must be longer than zero')
    .transform((v) => parseDuration(v)!);
const supernet = z
  .string()
  .regex(/^(\d{1,3})\.(\d{1,3})\.0\.0\/16$/, 'must be an IPv4 /16 like 10.128.0.0/16')
  .refine(
    (v) =>
      v
        .split('.')
        .slice(0, 2)
        .every((o) => Number(o) <= 255),
    'must be an IPv4 /16 like 10.128.0.0/16',
  );
/**
 * A file of PEM certificates a backend's TLS certificate is checked against (its private CA), read
 * when the service starts: an unreadable file or one without a certificate stops it.
 */
const caFile = z.string().transform((path, ctx) => {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch {
    ctx.addIssue({ code: 'custom', message: 'cannot read the file' });
    return z.NEVER;
  }
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(pem)) {
    ctx.addIssue({ code: 'custom', message: 'must be a file of PEM certificates' });
    return z.NEVER;
  }
  return pem;
});
const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** Trust classes the site serves: JSON `{"<class>": {"ssid": "...", "vlan": "<network>", "range": "a.b.c.d-a.b.c.e"}}`. */
const trustClasses = z
  .string()
  .transform((v, ctx) => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(
      z.string().regex(/^[a-z][a-z0-9-]{0,31}$/),
      z.object({ ssid: z.string().min(1).optional(), vlan: z.string().min(1).optional(), range: z.string().optional() }).strict(),
    ),
  );

export const siteSchema = z
  .object({
    SITE_DOMAIN: z.string().regex(/^([a-z0-9-]+\.)+[a-z]{2,}$/, 'must be a DNS domain like lab.example.net'),
    SITE_TENANT_SUPERNET: supernet.default('10.128.0.0/16'),
    SITE_VRF_VNI_BASE: int(10000),
    SITE_VNET_VNI_BASE: int(100000),
    SITE_VMID_BASE: int(10000),
    SITE_LOG_ACCOUNT_BASE: int(1000),
    SITE_NODE: z.string().min(1).default('pve1'),
    SITE_STORAGE: z.string().min(1).default('local-lvm'),
    SITE_TEMPLATE_PREFIX: z.string().min(1).default('tmpl-'),
    SITE_FABRIC_CONTROLLER: z.string().min(1).default('evpnctl'),
    SITE_ENROLLMENT_LIFETIME: duration('72h'),
    SITE_RECONCILE_INTERVAL: duration('1h'),
    /** How long the first answer to an Idempotency-Key is kept for its repeats. */
    SITE_IDEMPOTENCY_WINDOW: duration('24h'),
    SITE_BACKEND_TIMEOUT: duration('10s'),
    /** Tenants a sweep reconciles at once: enough to finish quickly, few enough to spare the backends. */
    SITE_SWEEP_CONCURRENCY: int(8).refine((n) => n >= 1 && n <= 62, 'must be between 1 and 62'),
    SITE_SWEEP_MODE: z.enum(['correct', 'plan']).default('correct'),
    /** Calls each worker sends each backend per second at most (0: no bound), so a sweep never floods one. */
    SITE_BACKEND_CALLS_PER_SECOND: int(100).refine((n) => n >= 0 && n <= 10_000, 'must be between 0 and 10000'),
    // A full clone of a multi-gigabyte template runs for minutes; the workload's VM activity is
    // bounded by Temporal at 12 h (WORKLOAD_VM_OPTIONS), which five such tasks must fit in.
    SITE_HYPERVISOR_TASK_TIMEOUT: duration('30m').refine((ms) => ms >= 10_000 && ms <= 2 * 3600_000, 'must be between 10s and 2h'),
    // One SDN apply reloads every node of the cluster in turn; the network step waits this long for
    // it and for the tenant's VNet on the workload node. The step's activity is bounded at 5 min.
    SITE_NETWORK_APPLY_TIMEOUT: duration('2m').refine((ms) => ms >= 10_000 && ms <= 4 * 60_000, 'must be between 10s and 4m'),
    SITE_TOKEN_KEY: key32,
    SITE_SECRETS_KEY: key32,
    SITE_SECRETS_KEY_ID: z
      .string()
      .regex(/^[a-zA-Z0-9_-]{1,16}$/)
      .default('k1'),
    SITE_PDNS_URL: url,
    SITE_PDNS_API_KEY: z.string().min(1),
    SITE_DNS_UPDATE_SERVER: z.string().min(1),
    SITE_DNS_NAMESERVERS: list.optional(),
    SITE_RESERVED_NAMES: list
      .refine((names) => names.every((n) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(n)), 'must be a comma-separated list of DNS labels')
      .optional(),
    SITE_RECURSOR_URL: url,
    SITE_RECURSOR_API_KEY: z.string().min(1),
    SITE_RECURSOR_FORWARD_TO: list,
    SITE_MINIO_URL: url,
    SITE_MINIO_ACCESS_KEY: z.string().min(1),
    SITE_MINIO_SECRET_KEY: z.string().min(1),
    // The server's configured region (MINIO_SITE_REGION): requests signed for another are refused.
    SITE_MINIO_REGION: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a region name like us-east-1')
      .default('us-east-1'),
    SITE_STATE_BUCKET: z.string().min(3).default('tenant-state'),
    SITE_STATE_ENDPOINT: url.optional(),
    SITE_PROXMOX_URL: url,
    SITE_PROXMOX_TOKEN_ID: z.string().min(1),
    SITE_PROXMOX_TOKEN_SECRET: z.string().min(1),
    SITE_TRUST_CLASSES: trustClasses.optional(),
    SITE_LOG_URL: url.optional(),
    SITE_LOG_UPSTREAM: z.string().min(1).optional(),
    SITE_LOG_SERVER: z.string().min(1).default('logs'),
    SITE_LOG_ENDPOINT: url.optional(),
    SITE_WIFI_URL: url.optional(),
    SITE_WIFI_DEPLOYMENT: z.enum(['unifi-os', 'self-hosted']).default('unifi-os'),
    SITE_WIFI_API_KEY: z.string().optional(),
    SITE_WIFI_USERNAME: z.string().optional(),
    SITE_WIFI_PASSWORD: z.string().optional(),
    SITE_WIFI_SITE: z.string().min(1).default('default'),
    SITE_WIFI_PLACEHOLDER_NETWORK: z.string().min(1).optional(),
    SITE_WIFI_DEVELOPER_SSID: z.string().min(1).optional(),
    SITE_WIFI_DEVELOPER_VLAN: z.string().min(1).optional(),
    SITE_WIFI_DEVELOPER_BOUND_SSID: z.string().min(1).max(32).optional(),
    SITE_DHCP_URL: url.optional(),
    SITE_DHCP_SUBNET_ID: z.coerce.number().int().positive().optional(),
    SITE_DHCP_USER: z.string().optional(),
    SITE_DHCP_PASSWORD: z.string().optional(),
    // Kea 2.x: the control agent; Kea 3.x: kea-dhcp4's own HTTP control socket.
    SITE_DHCP_CONTROL: z.enum(['agent', 'server'], { message: 'must be agent (Kea 2 control agent) or server (Kea 3 kea-dhcp4 HTTP socket)' }).default('agent'),
    SITE_DEVICE_SHARE: z.coerce.number().int().positive().default(16),
    SITE_BROKER_URL: z
      .string()
      .regex(/^mqtts?:\/\//, 'must be an mqtt:// or mqtts:// URL')
      .optional(),
    SITE_BROKER_ADMIN_USER: z.string().optional(),
    SITE_BROKER_ADMIN_PASSWORD: z.string().optional(),
    SITE_CA_CERT: z.string().includes('BEGIN CERTIFICATE', { message: 'must be a PEM certificate' }).optional(),
    SITE_CA_KEY: z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }).optional(),
    SITE_CA_CHAIN: z.string().optional(),
    SITE_GRAFANA_URL: url.optional(),
    SITE_GRAFANA_ADMIN_USER: z.string().optional(),
    SITE_GRAFANA_ADMIN_PASSWORD: z.string().optional(),
    SITE_GRAFANA_PUBLIC_URL: url.optional(),
    // The CA bundle every HTTPS/MQTTS backend is checked against, and one per backend that
    // overrides it. Absent: the public roots. Verification is never skipped.
    SITE_BACKEND_CA_FILE: caFile.optional(),
    SITE_PDNS_CA_FILE: caFile.optional(),
    SITE_RECURSOR_CA_FILE: caFile.optional(),
    SITE_MINIO_CA_FILE: caFile.optional(),
    SITE_PROXMOX_CA_FILE: caFile.optional(),
    SITE_LOG_CA_FILE: caFile.optional(),
    SITE_GRAFANA_CA_FILE: caFile.optional(),
    SITE_WIFI_CA_FILE: caFile.optional(),
    SITE_WIFI_CERT_SHA256: z
      .string()
      .regex(
        /^([0-9a-fA-F]{2}:?){31}[0-9a-fA-F]{2}$/,
        "must be the SHA-256 fingerprint of the controller's certificate: 64 hex digits, colons allowed (openssl x509 -noout -fingerprint -sha256)",
      )
      .optional(),
    SITE_DHCP_CA_FILE: caFile.optional(),
    SITE_BROKER_CA_FILE: caFile.optional(),
  })
  .superRefine((e, ctx) => {
    // Values that parse one by one but cannot work together: refused here, naming the variable.
    for (const p of siteProblems(e)) ctx.addIssue({ code: 'custom', path: [p.variable], message: p.message });
  })
  .transform((e) => ({
    domain: e.SITE_DOMAIN,
    supernet: e.SITE_TENANT_SUPERNET,
    vrfVniBase: e.SITE_VRF_VNI_BASE,
    vnetVniBase: e.SITE_VNET_VNI_BASE,
    vmidBase: e.SITE_VMID_BASE,
    logAccountBase: e.SITE_LOG_ACCOUNT_BASE,
    node: e.SITE_NODE,
    storage: e.SITE_STORAGE,
    templatePrefix: e.SITE_TEMPLATE_PREFIX,
    fabricController: e.SITE_FABRIC_CONTROLLER,
    enrollmentLifetimeMs: e.SITE_ENROLLMENT_LIFETIME,
    reconcileIntervalMs: e.SITE_RECONCILE_INTERVAL,
    idempotencyWindowMs: e.SITE_IDEMPOTENCY_WINDOW,
    /** Bound on one call to a backend; a slower backend is a failed attempt, never a hang. */
    backendTimeoutMs: e.SITE_BACKEND_TIMEOUT,
    sweepConcurrency: e.SITE_SWEEP_CONCURRENCY,
    sweepMode: e.SITE_SWEEP_MODE,
    backendCallsPerSecond: e.SITE_BACKEND_CALLS_PER_SECOND,
    /** Bound on one Proxmox QEMU task (clone, resize, start...) and on waiting for a VM's lock. */
    hypervisorTaskTimeoutMs: e.SITE_HYPERVISOR_TASK_TIMEOUT,
    /** Bound on one SDN apply: its task and the tenant's VNet running on the workload node. */
    networkApplyTimeoutMs: e.SITE_NETWORK_APPLY_TIMEOUT,
    tokenKey: e.SITE_TOKEN_KEY,
    secretsKey: e.SITE_SECRETS_KEY,
    secretsKeyId: e.SITE_SECRETS_KEY_ID,
    trustClasses: e.SITE_TRUST_CLASSES ?? {},
    /** Labels under the site domain no tenant may take: its zone would shadow the site's own name. */
    reservedNames: reservedNames(e),
    dns: {
      apiUrl: e.SITE_PDNS_URL,
      apiKey: e.SITE_PDNS_API_KEY,
      updateServer: e.SITE_DNS_UPDATE_SERVER,
      ca: e.SITE_PDNS_CA_FILE ?? e.SITE_BACKEND_CA_FILE,
      nameservers: e.SITE_DNS_NAMESERVERS ?? [`ns1.${e.SITE_DOMAIN}.`],
    },
    resolver: {
      apiUrl: e.SITE_RECURSOR_URL,
      apiKey: e.SITE_RECURSOR_API_KEY,
      forwardTo: e.SITE_RECURSOR_FORWARD_TO,
      ca: e.SITE_RECURSOR_CA_FILE ?? e.SITE_BACKEND_CA_FILE,
    },
    state: {
      adminUrl: e.SITE_MINIO_URL,
      accessKey: e.SITE_MINIO_ACCESS_KEY,
      secretKey: e.SITE_MINIO_SECRET_KEY,
      bucket: e.SITE_STATE_BUCKET,
      region: e.SITE_MINIO_REGION,
      endpoint: e.SITE_STATE_ENDPOINT ?? e.SITE_MINIO_URL,
      ca: e.SITE_MINIO_CA_FILE ?? e.SITE_BACKEND_CA_FILE,
    },
    proxmox: {
      apiUrl: e.SITE_PROXMOX_URL,
      tokenId: e.SITE_PROXMOX_TOKEN_ID,
      tokenSecret: e.SITE_PROXMOX_TOKEN_SECRET,
      ca: e.SITE_PROXMOX_CA_FILE ?? e.SITE_BACKEND_CA_FILE,
    },
    logStore: e.SITE_LOG_URL
      ? {
          adminUrl: e.SITE_LOG_URL,
          server: e.SITE_LOG_SERVER,
          upstream: e.SITE_LOG_UPSTREAM ?? '127.0.0.1:9428',
          endpoint: e.SITE_LOG_ENDPOINT ?? e.SITE_LOG_URL,
          ca: e.SITE_LOG_CA_FILE ?? e.SITE_BACKEND_CA_FILE,
        }
      : undefined,
    wifi: e.SITE_WIFI_URL
      ? {
          url: e.SITE_WIFI_URL,
          deployment: e.SITE_WIFI_DEPLOYMENT,
          apiKey: e.SITE_WIFI_API_KEY || undefined,
          username: e.SITE_WIFI_USERNAME || undefined,
          password: e.SITE_WIFI_PASSWORD || undefined,
          site: e.SITE_WIFI_SITE,
          placeholderNetwork: e.SITE_WIFI_PLACEHOLDER_NETWORK,
          ca: e.SITE_WIFI_CA_FILE ?? e.SITE_BACKEND_CA_FILE,
          /** The controller's own certificate, pinned by its fingerprint (SITE_WIFI_CERT_SHA256) instead of a CA. */
          pin: e.SITE_WIFI_CERT_SHA256 ? fingerprintForm(e.SITE_WIFI_CERT_SHA256) : undefined,
          /** The tenant developer network: where admission keys go. */
          developer:
            e.SITE_WIFI_DEVELOPER_SSID && e.SITE_WIFI_DEVELOPER_VLAN
              ? {
                  ssid: e.SITE_WIFI_DEVELOPER_SSID,
                  vlan: e.SITE_WIFI_DEVELOPER_VLAN,
                  /**
                   * The second developer WLAN, MAC-filtered: an admission with `mac` gets its key there
                   * and its MAC on the WLAN's allow-list (docs/decisions.md, "Wireless controller").
                   */
                  boundSsid: e.SITE_WIFI_DEVELOPER_BOUND_SSID,
                }
              : undefined,
        }
      : undefined,
    dhcp: e.SITE_DHCP_URL
      ? {
          controlUrl: e.SITE_DHCP_URL,
          subnetId: e.SITE_DHCP_SUBNET_ID ?? 1,
          user: e.SITE_DHCP_USER,
          password: e.SITE_DHCP_PASSWORD,
          control: e.SITE_DHCP_CONTROL,
          share: e.SITE_DEVICE_SHARE,
          ca: e.SITE_DHCP_CA_FILE ?? e.SITE_BACKEND_CA_FILE,
        }
      : undefined,
    broker: e.SITE_BROKER_URL
      ? {
          url: e.SITE_BROKER_URL,
          adminUser: e.SITE_BROKER_ADMIN_USER ?? 'admin',
          adminPassword: e.SITE_BROKER_ADMIN_PASSWORD ?? '',
          ca: e.SITE_BROKER_CA_FILE ?? e.SITE_BACKEND_CA_FILE,
        }
      : undefined,
    ca: e.SITE_CA_CERT && e.SITE_CA_KEY ? { certPem: e.SITE_CA_CERT, keyPem: e.SITE_CA_KEY, chainPem: e.SITE_CA_CHAIN } : undefined,
    grafana: e.SITE_GRAFANA_URL
      ? {
          url: e.SITE_GRAFANA_URL,
          adminUser: e.SITE_GRAFANA_ADMIN_USER ?? 'admin',
          adminPassword: e.SITE_GRAFANA_ADMIN_PASSWORD ?? '',
          publicUrl: e.SITE_GRAFANA_PUBLIC_URL ?? e.SITE_GRAFANA_URL,
          ca: e.SITE_GRAFANA_CA_FILE ?? e.SITE_BACKEND_CA_FILE,
        }
      : undefined,
  }));

export type Site = z.output<typeof siteSchema>;

/**
 * The labels right under the site domain that the site itself uses: its nameservers (every
 * tenant zone's NS records point there), the DNS update server, the hosts of its backends'
 * URLs, and whatever SITE_RESERVED_NAMES lists. A tenant zone `<name>.<domain>` would hide them.
 */
function reservedNames(e: Record<string, unknown>): ReadonlySet<string> {
  const domain = String(e.SITE_DOMAIN);
  const hosts: string[] = [...((e.SITE_DNS_NAMESERVERS as string[] | undefined) ?? [`ns1.${domain}.`])];
  hosts.push(String(e.SITE_DNS_UPDATE_SERVER).replace(/:\d+$/, ''));
  for (const [k, v] of Object.entries(e)) {
    if (!/_(URL|ENDPOINT)$/.test(k) || typeof v !== 'string') continue;
    try {
      hosts.push(new URL(v).hostname);
    } catch {}
  }
  const names = new Set<string>((e.SITE_RESERVED_NAMES as string[] | undefined) ?? []);
  for (const host of hosts) {
    const h = host.toLowerCase().replace(/\.$/, '');
    if (!h.endsWith(`.${domain}`)) continue;
    names.add(
      h
        .slice(0, -domain.length - 1)
        .split('.')
        .pop()!,
    );
  }
  return names;
}
