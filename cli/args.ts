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

/**
 * The words and flags of a command line. What no call can use is a usage error here, before any
 * request is made or announced: an unknown flag, a whole-number flag that is not one, and a flag of
 * one value given twice (parseArgs keeps the last silently, so `--address A --address B` would put
 * B where the caller may have meant A; the values are not echoed, as a flag may carry a secret).
 */
export function parseCommandLine(argv: string[]): { words: string[]; flags: Flags } {
  let parsed: ReturnType<typeof parseWith>;
  try {
    parsed = parseWith(argv);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const given = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const option: { type: string; multiple?: boolean } = OPTIONS[token.name as keyof typeof OPTIONS];
    if (option.type !== 'string' || option.multiple) continue;
    if (given.has(token.name)) throw new UsageError(`--${token.name} given twice; it takes one value`);
    given.add(token.name);
  }
  const flags = parsed.values as Flags;
  for (const name of WHOLE_NUMBER_FLAGS) intFlag(flags, name);
  return { words: parsed.positionals, flags };
}

const parseWith = (argv: string[]) => parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });

const WHOLE_NUMBER_FLAGS = ['index', 'cores', 'memory-mb', 'disk-gb', 'limit'] as const;

/** A whole number flag, or a usage error naming it. */
export function intFlag(flags: Flags, name: (typeof WHOLE_NUMBER_FLAGS)[number]): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number`);
  return Number(v);
}
