import { parseArgs } from 'node:util';

/** Every flag tenantctl knows; an unknown one is a usage error (exit 2), never ignored. */
const OPTIONS = {
  api: { type: 'string' },
  token: { type: 'string' },
  'token-file': { type: 'string' },
  output: { type: 'string', short: 'o' },
  'secrets-file': { type: 'string' },
  'show-secrets': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // request fields
  mac: { type: 'string' },
  index: { type: 'string' },
  'tsig-secret': { type: 'string' },
  'state-secret': { type: 'string' },
  'api-token': { type: 'string' },
  cores: { type: 'string' },
  'memory-mb': { type: 'string' },
  'disk-gb': { type: 'string' },
  'ssh-key': { type: 'string', multiple: true },
  address: { type: 'string' },
  'trust-class': { type: 'string' },
  psk: { type: 'string' },
  device: { type: 'string' },
  publish: { type: 'string', multiple: true },
  subscribe: { type: 'string', multiple: true },
  password: { type: 'string' },
  'csr-file': { type: 'string' },
  'extra-name': { type: 'string', multiple: true },
  prune: { type: 'boolean' },
  plan: { type: 'boolean' },
  canaries: { type: 'boolean' },
  apply: { type: 'string' },
  out: { type: 'string' },
  operation: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  page: { type: 'string' },
} as const;

export type Flags = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { type: 'boolean' } ? boolean : (typeof OPTIONS)[K] extends { multiple: true } ? string[] : string;
};

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseCommandLine(argv: string[]): { words: string[]; flags: Flags } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    return { words: positionals, flags: values as Flags };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** A whole number flag, or a usage error naming it. */
export function intFlag(flags: Flags, name: 'index' | 'cores' | 'memory-mb' | 'disk-gb' | 'limit'): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number`);
  return Number(v);
}
