import { z } from 'zod';
import { dedupeProblems, siteProblems, type SiteProblem } from './site-problems.js';
import { caFile, duration, durationOrOff, int, key32, list, supernet, trustClasses, url } from './site-variables.js';

/**
 * The site's own settings: address plan, identifier bases, keys and bounds (design §3, §7).
 * Required once SITE_DOMAIN is set. Each backend's URL and credential are its area's slice
 * (`activities/<area>/settings.ts`), listed with the area in activities/backend-areas.ts, which
 * joins them with these into the whole site (`siteSchemaOf`). Optional backends are off until their
 * URL is set; their routes then refuse with a reason.
 */
export const CORE_VARIABLES = {
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
  /** Where tenants reach this service's API: the isolation check's `api` probe presents a canary's token there (absent: not probed). */
  SITE_API_URL: url.optional(),
  /**
   * How often the isolation check's Schedule runs it (issue 49; docs/production.md, "The isolation
   * check"); `off`: only on demand, no canaries until the first one (its Schedule is deleted).
   */
  SITE_ISOLATION_CHECK_INTERVAL: durationOrOff('1h').refine((ms) => ms === undefined || ms >= 60_000, 'must be at least 1m'),
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
  SITE_RESERVED_NAMES: list
    .refine((names) => names.every((n) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(n)), 'must be a comma-separated list of DNS labels')
    .optional(),
  SITE_TRUST_CLASSES: trustClasses.optional(),
  /** Where drift found, parked runs and runs given up are sent as signed events (Standard Webhooks); absent: only the feed. */
  SITE_EVENTS_WEBHOOK_URL: z.string().url('must be a URL').optional(),
  /** The webhook's signing secret: `whsec_` and base64, as Standard Webhooks gives it, or any string of 16 or more characters. */
  SITE_EVENTS_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** How often each worker looks for new events and delivers those due. */
  SITE_EVENTS_INTERVAL: duration('15s').refine((ms) => ms >= 200 && ms <= 3600_000, 'must be between 200ms and 1h'),
  // The CA bundle every HTTPS/MQTTS backend is checked against, unless its area's own overrides it.
  // Absent: the public roots. Verification is never skipped.
  SITE_BACKEND_CA_FILE: caFile.optional(),
};

type CoreVariables = z.output<z.ZodObject<typeof CORE_VARIABLES>>;

function readCore(e: CoreVariables, all: Record<string, unknown>) {
  return {
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
    isolationCheckIntervalMs: e.SITE_ISOLATION_CHECK_INTERVAL,
    apiUrl: e.SITE_API_URL,
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
    reservedNames: reservedNames(all),
    /** The CA bundle (PEM) a backend's TLS certificate is checked against when its area names none. */
    backendCa: e.SITE_BACKEND_CA_FILE,
    /** Events (apps/worker/event-relay.ts): the webhook, when the site has one, and how often each worker looks. */
    events: {
      webhook: e.SITE_EVENTS_WEBHOOK_URL && e.SITE_EVENTS_WEBHOOK_SECRET ? { url: e.SITE_EVENTS_WEBHOOK_URL, secret: e.SITE_EVENTS_WEBHOOK_SECRET } : undefined,
      intervalMs: e.SITE_EVENTS_INTERVAL,
    },
  };
}

/** The site's own settings, without the backends' slices (those are `Site`, activities/site.ts). */
export type CoreSite = ReturnType<typeof readCore>;

/**
 * One backend area's slice of the site (`activities/<area>/settings.ts`): its variables, the slice
 * `site[key]` read from them (undefined for an optional backend the site leaves out), and what is
 * wrong with them together. `read` is given the parsed variables of the whole site, so a slice may
 * default to a core setting (the site's CA bundle, its domain).
 */
export interface SiteSettings<K extends string = string, V extends z.ZodRawShape = z.ZodRawShape, T = unknown> {
  key: K;
  variables: V;
  read(e: z.output<z.ZodObject<V>>, core: CoreSite): T;
  /** Values that parse one by one but cannot work together, naming the variable, never a value. */
  problems?(e: Record<string, unknown>): SiteProblem[];
}

/** Typed identity: keeps the slice's key, variables and read type for `Site`. */
export const siteSettings = <K extends string, V extends z.ZodRawShape, T>(settings: SiteSettings<K, V, T>): SiteSettings<K, V, T> => settings;

/**
 * The whole site's schema: the core variables and every slice's, parsed together (an error names
 * each bad variable), then checked together, then read into the core settings with each slice
 * under its key. Untyped here; activities/site.ts gives it the areas' `Site`.
 */
export function siteSchemaOf(slices: readonly SiteSettings[]) {
  const variables: z.ZodRawShape = Object.assign({}, CORE_VARIABLES, ...slices.map((s) => s.variables));
  return z
    .object(variables)
    .superRefine((e, ctx) => {
      const problems = dedupeProblems([...siteProblems(e), ...slices.flatMap((s) => s.problems?.(e) ?? [])]);
      for (const p of problems) ctx.addIssue({ code: 'custom', path: [p.variable], message: p.message });
    })
    .transform((e) => {
      const core = readCore(e as CoreVariables, e);
      return Object.assign(core, Object.fromEntries(slices.map((s) => [s.key, s.read(e, core)]))) as CoreSite;
    });
}

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
