import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { readSmallFile } from './small-file.js';
import { dirname } from 'node:path';
import type { ApiClient } from '../client/index.js';
import { intFlag, UsageError, type Flags } from './args.js';
import type { WatchedRun } from './run-progress.js';
import type { SecretsOwner } from './secrets-file.js';

/** What a command's call gives back: openapi-fetch's answer, as far as tenantctl reads it. */
export interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

export interface CallContext {
  api: ApiClient;
  args: string[];
  flags: Flags;
  /** Idempotency-Key of this invocation (one per run, kept across its repeat). */
  header: { 'Idempotency-Key': string };
}

export interface Command {
  words: [string, string];
  args: string[];
  /** Flags of the request, for the usage text. */
  options?: string;
  summary: string;
  /** Creates or issues something: sent with an Idempotency-Key, repeated once on a dropped connection. */
  idempotent?: boolean;
  /**
   * Its answer may carry secrets (unless `none` says this call's does not): they go to
   * --secrets-file, or to the screen with --show-secrets. `of` is the object they are of, which a
   * secrets file already there must hold (cli/secrets-file.ts).
   */
  secrets?: { of: (args: string[]) => SecretsOwner; none?: (flags: Flags) => boolean };
  /** A tenant create: progress per step while it runs, from the tenant's own steps. */
  progress?: (args: string[]) => string;
  /** Any other call that runs an object's steps: the run whose step is reported live while it runs. */
  run?: (args: string[], flags: Flags) => WatchedRun | undefined;
  call(c: CallContext): Promise<Answer>;
  /** A 200 that still says something is wrong (an isolation check that did not pass): what to tell, and the exit is `EXIT.notPassed`. */
  notPassed?: (body: unknown) => string | undefined;
}

/** An isolation check's answer that did not pass: its crossings, or that some backend's isolation is unknown. */
const isolationNotPassed = (body: unknown): string | undefined => {
  const r = body as { passed?: boolean; crossings?: string[] } | undefined;
  if (r?.passed !== false) return undefined;
  return r.crossings?.length
    ? `isolation crossed:\n${r.crossings.map((c) => `  ${c}`).join('\n')}`
    : 'isolation unknown: a probe was refused on its own canary or its backend did not answer';
};

const need = (v: string | undefined, flag: string): string => {
  if (v === undefined) throw new UsageError(`--${flag} is required`);
  return v;
};

const t = (args: string[]) => ({ t: args[0]! });

/**
 * `--out` is written with the certificate and its chain: never over what is not certificates (the
 * private key beside it, a one-letter slip from `web.crt`, is the tenant's only copy), and never
 * after the call in a folder that cannot take it.
 */
function checkCertificateFile(path: string): void {
  // A stream (`--out /dev/stdout`, a pipe) holds nothing to lose.
  const there = statSync(path, { throwIfNoEntry: false });
  if (there && (there.isCharacterDevice() || there.isFIFO())) return;
  let held: string;
  try {
    held = readSmallFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`--out ${path}: cannot read what is there (${(e as NodeJS.ErrnoException).code})`);
    try {
      accessSync(dirname(path), constants.W_OK);
    } catch (f) {
      throw new UsageError(`--out ${path}: its folder cannot be written (${(f as NodeJS.ErrnoException).code})`);
    }
    return;
  }
  const rest = held.replace(/-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]*-----END CERTIFICATE-----/g, '').trim();
  if (rest !== '') throw new UsageError(`--out ${path} exists and holds something other than certificates (a private key?): name another file`);
}

/** A tenant's secrets: a create's (a failed one's partial tenant) or a reconcile's, which carries the same name and index. */
const tenantSecrets = ([name]: string[]): SecretsOwner => ({ what: `tenant "${name}"`, is: (o) => o.name === name && 'index' in o });

/** Every route of the spec, as `tenantctl <resource> <action> <args>`. */
export const COMMANDS: Command[] = [
  { words: ['service', 'health'], args: [], summary: 'liveness', call: ({ api }) => api.GET('/healthz') },
  { words: ['service', 'ready'], args: [], summary: 'readiness', call: ({ api }) => api.GET('/readyz') },
  { words: ['service', 'version'], args: [], summary: 'the serving build', call: ({ api }) => api.GET('/version') },

  {
    words: ['admission', 'create'],
    args: ['name'],
    options: '[--mac MAC]',
    summary: 'admit a name: a single-use enrollment token',
    idempotent: true,
    secrets: { of: ([name]) => ({ what: `the admission of "${name}"`, is: (o) => o.name === name && 'enrollment_token' in o }) },
    call: ({ api, args, flags, header }) => api.POST('/v1/admissions', { params: { header }, body: { name: args[0]!, mac: flags.mac } }),
  },
  {
    words: ['admission', 'delete'],
    args: ['name'],
    summary: 'withdraw an unused admission',
    call: ({ api, args }) => api.DELETE('/v1/admissions/{t}', { params: { path: t(args) } }),
  },

  {
    words: ['tenant', 'create'],
    args: ['name'],
    options: '[--index N] [--tsig-secret S --state-secret S --api-token T]',
    summary: 'create, resume, restore or reconcile a tenant',
    idempotent: true,
    secrets: { of: tenantSecrets },
    progress: (args) => args[0]!,
    call: ({ api, args, flags, header }) =>
      api.POST('/v1/tenants', {
        params: { header },
        body: {
          name: args[0]!,
          index: intFlag(flags, 'index'),
          tsig_secret: flags['tsig-secret'],
          state_secret: flags['state-secret'],
          api_token: flags['api-token'],
        },
      }),
  },
  {
    words: ['tenant', 'list'],
    args: [],
    options: '[--canaries]',
    summary: "every tenant (with --canaries, the isolation check's too)",
    call: ({ api, flags }) => api.GET('/v1/tenants', { params: { query: flags.canaries ? { canaries: 'true' } : {} } }),
  },

  {
    words: ['isolation-check', 'run'],
    args: [],
    summary: "run the isolation check now: each canary's credentials against the other's objects (exit 5 when it did not pass)",
    notPassed: isolationNotPassed,
    call: ({ api }) => api.POST('/v1/isolation-checks'),
  },
  {
    words: ['isolation-check', 'latest'],
    args: [],
    summary: 'the last isolation check that finished (exit 5 when it did not pass)',
    notPassed: isolationNotPassed,
    call: ({ api }) => api.GET('/v1/isolation-checks/latest'),
  },
  {
    words: ['tenant', 'get'],
    args: ['name'],
    summary: 'one tenant, without secrets',
    call: ({ api, args }) => api.GET('/v1/tenants/{t}', { params: { path: t(args) } }),
  },
  {
    words: ['tenant', 'delete'],
    run: (args) => ({ tenant: args[0]!, operation: 'tenant-delete', object: `tenants/${args[0]}` }),
    args: ['name'],
    summary: 'delete a tenant',
    call: ({ api, args }) => api.DELETE('/v1/tenants/{t}', { params: { path: t(args) } }),
  },
  {
    words: ['tenant', 'reconcile'],
    run: (args, flags) => (flags.plan ? undefined : { tenant: args[0]!, operation: 'tenant-reconcile', object: `tenants/${args[0]}` }),
    args: ['name'],
    options: '[--plan [--prune] | --apply PLAN_ID]',
    summary:
      're-ensure every backend of a tenant and everything it owns; --plan saves what it would change (a table, with its id), changing nothing; --apply carries a saved plan out exactly, refused when anything it covered moved; --prune (with --plan) also removes what the registry does not hold',
    // A plan hands out nothing; a reconcile the log tokens and the dashboard password, kept beside the create's.
    secrets: { of: tenantSecrets, none: (flags) => Boolean(flags.plan) },
    call: ({ api, args, flags }) => {
      if (flags.prune && !flags.plan) throw new UsageError('--prune only with --plan: a prune is a saved plan, applied with --apply');
      if (flags.apply !== undefined && (flags.plan || flags.prune))
        throw new UsageError('--apply carries out a saved plan as it was made: no --plan or --prune beside it');
      const query = flags.plan
        ? { plan: 'true' as const, ...(flags.prune ? { prune: 'true' as const } : {}) }
        : flags.apply !== undefined
          ? { apply: flags.apply }
          : undefined;
      return api.POST('/v1/tenants/{t}/reconcile', { params: { path: t(args), ...(query ? { query } : {}) } });
    },
  },
  {
    words: ['tenant', 'runs'],
    args: ['name'],
    options: '[--operation O] [--status S] [--limit N] [--page P]',
    summary: 'the runs of a tenant and its objects, newest first, with each failed step (a table; --page for the next ones)',
    call: ({ api, args, flags }) => {
      // The server says which values it takes (a 400 naming the field), so they pass as given.
      const query = { operation: flags.operation, status: flags.status, limit: intFlag(flags, 'limit'), page: flags.page } as Record<string, unknown>;
      return api.GET('/v1/tenants/{t}/runs', { params: { path: t(args), query: query as never } });
    },
  },

  {
    words: ['workload', 'create'],
    run: (args) => ({ tenant: args[0]!, operation: 'workload-create', object: `tenants/${args[0]}/workloads/${args[1]}` }),
    args: ['tenant', 'name'],
    options: '[--cores N] [--memory-mb N] [--disk-gb N] [--ssh-key K]...',
    summary: 'create a workload or re-apply its sizing',
    idempotent: true,
    call: ({ api, args, flags, header }) =>
      api.POST('/v1/tenants/{t}/workloads', {
        params: { path: t(args), header },
        body: {
          name: args[1]!,
          cores: intFlag(flags, 'cores'),
          memory_mb: intFlag(flags, 'memory-mb'),
          disk_gb: intFlag(flags, 'disk-gb'),
          ssh_keys: flags['ssh-key'],
        },
      }),
  },
  {
    words: ['workload', 'list'],
    args: ['tenant'],
    summary: "the tenant's workloads",
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/workloads', { params: { path: t(args) } }),
  },
  {
    words: ['workload', 'get'],
    args: ['tenant', 'name'],
    summary: 'one workload',
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/workloads/{workload}', { params: { path: { t: args[0]!, workload: args[1]! } } }),
  },
  {
    words: ['workload', 'delete'],
    run: (args) => ({ tenant: args[0]!, operation: 'workload-delete', object: `tenants/${args[0]}/workloads/${args[1]}` }),
    args: ['tenant', 'name'],
    summary: 'delete a workload',
    call: ({ api, args }) => api.DELETE('/v1/tenants/{t}/workloads/{workload}', { params: { path: { t: args[0]!, workload: args[1]! } } }),
  },

  {
    words: ['record', 'put'],
    run: (args) => ({ tenant: args[0]!, operation: 'record-put', object: `tenants/${args[0]}/records/${args[1]}` }),
    args: ['tenant', 'name'],
    options: '--address A',
    summary: 'publish <name>.<zone> for an address',
    idempotent: true,
    call: ({ api, args, flags, header }) =>
      api.PUT('/v1/tenants/{t}/records/{record}', {
        params: { path: { t: args[0]!, record: args[1]! }, header },
        body: { address: need(flags.address, 'address') },
      }),
  },
  {
    words: ['record', 'list'],
    args: ['tenant'],
    summary: 'the names the tenant added',
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/records', { params: { path: t(args) } }),
  },
  {
    words: ['record', 'delete'],
    run: (args) => ({ tenant: args[0]!, operation: 'record-delete', object: `tenants/${args[0]}/records/${args[1]}` }),
    args: ['tenant', 'name'],
    summary: 'remove a name',
    call: ({ api, args }) => api.DELETE('/v1/tenants/{t}/records/{record}', { params: { path: { t: args[0]!, record: args[1]! } } }),
  },

  {
    words: ['device', 'create'],
    args: ['tenant', 'name'],
    options: '--trust-class C [--mac MAC]',
    summary: 'register a device',
    idempotent: true,
    call: ({ api, args, flags, header }) =>
      api.POST('/v1/tenants/{t}/devices', {
        params: { path: t(args), header },
        body: { name: args[1]!, trust_class: need(flags['trust-class'], 'trust-class'), mac: flags.mac },
      }),
  },
  {
    words: ['device', 'list'],
    args: ['tenant'],
    summary: "the tenant's devices",
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/devices', { params: { path: t(args) } }),
  },
  {
    words: ['device', 'get'],
    args: ['tenant', 'name'],
    summary: 'one device',
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/devices/{device}', { params: { path: { t: args[0]!, device: args[1]! } } }),
  },
  {
    words: ['device', 'delete'],
    args: ['tenant', 'name'],
    summary: 'remove a device',
    call: ({ api, args }) => api.DELETE('/v1/tenants/{t}/devices/{device}', { params: { path: { t: args[0]!, device: args[1]! } } }),
  },

  {
    words: ['device-address', 'create'],
    run: (args) => ({ tenant: args[0]!, operation: 'device-address-reserve', object: `tenants/${args[0]}/devices/${args[1]}/address` }),
    args: ['tenant', 'device'],
    options: '[--address A]',
    summary: 'reserve a fixed address for a device',
    idempotent: true,
    call: ({ api, args, flags, header }) =>
      api.POST('/v1/tenants/{t}/devices/{device}/address', { params: { path: { t: args[0]!, device: args[1]! }, header }, body: { address: flags.address } }),
  },
  {
    words: ['device-address', 'get'],
    args: ['tenant', 'device'],
    summary: "a device's fixed address",
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/devices/{device}/address', { params: { path: { t: args[0]!, device: args[1]! } } }),
  },
  {
    words: ['device-address', 'delete'],
    run: (args) => ({ tenant: args[0]!, operation: 'device-address-release', object: `tenants/${args[0]}/devices/${args[1]}/address` }),
    args: ['tenant', 'device'],
    summary: "release a device's fixed address",
    call: ({ api, args }) => api.DELETE('/v1/tenants/{t}/devices/{device}/address', { params: { path: { t: args[0]!, device: args[1]! } } }),
  },

  {
    words: ['wifi-key', 'create'],
    run: (args) => ({ tenant: args[0]!, operation: 'wifi-key-issue', object: `tenants/${args[0]}/wifi-keys/${args[1]}` }),
    args: ['tenant', 'name'],
    options: '--trust-class C [--psk P]',
    summary: 'issue a Wi-Fi key',
    idempotent: true,
    secrets: { of: ([tenant, name]) => ({ what: `Wi-Fi key "${name}" of tenant "${tenant}"`, is: (o) => o.name === name && 'ssid' in o }) },
    call: ({ api, args, flags, header }) =>
      api.POST('/v1/tenants/{t}/wifi-keys', {
        params: { path: t(args), header },
        body: { name: args[1]!, trust_class: need(flags['trust-class'], 'trust-class'), psk: flags.psk },
      }),
  },
  {
    words: ['wifi-key', 'list'],
    args: ['tenant'],
    summary: "the tenant's Wi-Fi keys",
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/wifi-keys', { params: { path: t(args) } }),
  },
  {
    words: ['wifi-key', 'get'],
    args: ['tenant', 'name'],
    summary: 'one Wi-Fi key',
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/wifi-keys/{key}', { params: { path: { t: args[0]!, key: args[1]! } } }),
  },
  {
    words: ['wifi-key', 'delete'],
    run: (args) => ({ tenant: args[0]!, operation: 'wifi-key-revoke', object: `tenants/${args[0]}/wifi-keys/${args[1]}` }),
    args: ['tenant', 'name'],
    summary: 'revoke a Wi-Fi key',
    call: ({ api, args }) => api.DELETE('/v1/tenants/{t}/wifi-keys/{key}', { params: { path: { t: args[0]!, key: args[1]! } } }),
  },

  {
    words: ['broker-account', 'create'],
    run: (args) => ({ tenant: args[0]!, operation: 'broker-account-ensure', object: `tenants/${args[0]}/broker-accounts/${args[1]}` }),
    args: ['tenant', 'name'],
    options: '[--device D] [--publish P]... [--subscribe S]... [--password P]',
    summary: 'issue an MQTT broker account',
    idempotent: true,
    secrets: { of: ([tenant, name]) => ({ what: `broker account "${name}" of tenant "${tenant}"`, is: (o) => o.username === `${tenant}-${name}` }) },
    call: ({ api, args, flags, header }) =>
      api.POST('/v1/tenants/{t}/broker-accounts', {
        params: { path: t(args), header },
        body: { name: args[1]!, device: flags.device, publish: flags.publish ?? [], subscribe: flags.subscribe ?? [], password: flags.password },
      }),
  },
  {
    words: ['broker-account', 'list'],
    args: ['tenant'],
    summary: "the tenant's broker accounts",
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/broker-accounts', { params: { path: t(args) } }),
  },
  {
    words: ['broker-account', 'get'],
    args: ['tenant', 'name'],
    summary: 'one broker account',
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/broker-accounts/{account}', { params: { path: { t: args[0]!, account: args[1]! } } }),
  },
  {
    words: ['broker-account', 'delete'],
    run: (args) => ({ tenant: args[0]!, operation: 'broker-account-delete', object: `tenants/${args[0]}/broker-accounts/${args[1]}` }),
    args: ['tenant', 'name'],
    summary: 'delete a broker account',
    call: ({ api, args }) => api.DELETE('/v1/tenants/{t}/broker-accounts/{account}', { params: { path: { t: args[0]!, account: args[1]! } } }),
  },

  {
    words: ['certificate', 'put'],
    args: ['tenant', 'name'],
    options: '--csr-file FILE [--extra-name LABEL]... [--out FILE]',
    summary: 'get a server certificate for a CSR; --out writes the certificate and its chain to FILE, as a server presents them',
    idempotent: true,
    call: async ({ api, args, flags, header }) => {
      const file = need(flags['csr-file'], 'csr-file');
      if (flags.out !== undefined) checkCertificateFile(flags.out);
      let csr: string;
      try {
        csr = readSmallFile(file);
      } catch (e) {
        throw new UsageError(`--csr-file: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})`);
      }
      const answer = await api.PUT('/v1/tenants/{t}/certificates/{certificate}', {
        params: { path: { t: args[0]!, certificate: args[1]! }, header },
        body: { csr, names: flags['extra-name'] },
      });
      // Public material (spec: everything in a certificate is public): a plain file, the server's own first.
      if (flags.out && answer.data) writeFileSync(flags.out, `${answer.data.certificate.trimEnd()}\n${answer.data.chain.trimEnd()}\n`);
      return answer;
    },
  },
  {
    words: ['certificate', 'list'],
    args: ['tenant'],
    summary: "the tenant's certificates",
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/certificates', { params: { path: t(args) } }),
  },
  {
    words: ['certificate', 'get'],
    args: ['tenant', 'name'],
    summary: 'the current certificate of a name',
    call: ({ api, args }) => api.GET('/v1/tenants/{t}/certificates/{certificate}', { params: { path: { t: args[0]!, certificate: args[1]! } } }),
  },
  {
    words: ['certificate', 'delete'],
    args: ['tenant', 'name'],
    summary: 'forget a certificate',
    call: ({ api, args }) => api.DELETE('/v1/tenants/{t}/certificates/{certificate}', { params: { path: { t: args[0]!, certificate: args[1]! } } }),
  },

  { words: ['fabric', 'egress'], args: [], summary: "every ready tenant's VRF", call: ({ api }) => api.GET('/v1/fabric/egress') },
];

export function usage(): string {
  const lines = COMMANDS.map((c) => `  tenantctl ${c.words.join(' ')}${c.args.map((a) => ` <${a}>`).join('')}${c.options ? ` ${c.options}` : ''}`);
  return [
    'usage: tenantctl [--api URL] [--token TOKEN | --token-file FILE] [--output json|table] <resource> <action> [args] [flags]',
    '',
    'The API address and token come from --api/--token or TENANT_API_URL/TENANT_API_TOKEN; --token-file FILE takes',
    "the tenant's own token (api_token) from a secrets file tenantctl wrote.",
    'Calls that issue secrets need --secrets-file FILE (written with mode 0600) or --show-secrets.',
    'Exit codes: 0 done, 1 service unavailable or unreachable, 2 usage, 3 refused (4xx), 4 a backend step failed (502).',
    '',
    ...lines,
    '',
  ].join('\n');
}
