import { readSmallFile } from './small-file.js';
import { UsageError, type Flags } from './args.js';
import { wrapperOf } from './secrets-file.js';

/** The service's enrollment tokens (apps/api/operations/tenant.ts `admit`): single use. */
const ENROLLMENT = /^enr1\./;

/**
 * The token tenantctl presents: --token, or the `api_token` of a secrets file tenantctl wrote
 * (--token-file: a create's answer, or a failed create's partial tenant), or TENANT_API_TOKEN.
 */
export function credentialOf(flags: Flags, env: NodeJS.ProcessEnv): string | undefined {
  const file = flags['token-file'];
  if (file === undefined) return flags.token ?? env.TENANT_API_TOKEN;
  if (flags.token !== undefined) throw new UsageError('--token and --token-file exclude each other');
  let kept: unknown;
  try {
    kept = JSON.parse(readSmallFile(file));
  } catch (e) {
    throw new UsageError(`--token-file ${file}: not a secrets file tenantctl wrote (${(e as NodeJS.ErrnoException).code ?? 'not JSON'})`);
  }
  const token = apiTokenOf(kept);
  if (!token) throw new UsageError(`--token-file ${file}: holds no api_token`);
  return token;
}

/** A tenant's own token in an answer: a create's (`api_token`) or a failed create's partial tenant (`tenant.api_token`). */
function apiTokenOf(answer: unknown): string | undefined {
  const a = answer as { api_token?: unknown; tenant?: { api_token?: unknown } } | null;
  const token = a?.api_token ?? a?.tenant?.api_token;
  return typeof token === 'string' ? token : undefined;
}

/** `argv` without the --token flag (its value is a credential: never printed). */
function withoutToken(argv: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--token' || argv[i] === '--token-file') i++;
    else if (!argv[i]!.startsWith('--token=') && !argv[i]!.startsWith('--token-file=')) kept.push(argv[i]!);
  }
  return kept;
}

/** Flags whose value is a secret, and where a failed call's answer holds the value to resume with. */
const SECRET_FLAGS: Record<string, string[] | undefined> = {
  token: undefined,
  'api-token': ['api_token'],
  'tsig-secret': ['dns', 'tsig_secret'],
  'state-secret': ['state', 'secret_key'],
  psk: ['psk'],
  password: ['password'],
};

/** A word as a POSIX shell reads it back unchanged. */
const quote = (a: string) => (/^[\w./:=@,-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/**
 * The command that resumes a create that failed at a step (502), as a shell line, and what to say
 * before it. The same command, except:
 * - after an enrolled create: its enrollment token was spent by that create (a repeat with it is
 *   401), and the tenant's own token, in the answer, resumes it: from the secrets file it was
 *   written to, or (--show-secrets) as the token itself, already on the screen;
 * - a secret given as a flag (a restore's `--tsig-secret`, a `--psk`, ...) is never printed: it is
 *   read back from the secrets file, where the failed call's answer holds it, with jq; a value the
 *   file does not hold (`--token`) is left for the person to give again. With --show-secrets the
 *   command is printed as given: its secrets are on the screen already.
 */
export function resumeCommand(argv: string[], flags: Flags, env: NodeJS.ProcessEnv, answer: unknown): { say: string; line: string } {
  const file = flags['secrets-file'];
  const credential = flags['token-file'] === undefined ? (flags.token ?? env.TENANT_API_TOKEN) : undefined;
  const own = apiTokenOf(answer);
  const kept = 'The work is kept where it stopped.';
  if (credential && ENROLLMENT.test(credential) && own) {
    const spent = `${kept} The enrollment token was spent by this create; resume it with the tenant`;
    if (file) return { say: `${spent}'s own token, kept in ${file}:`, line: unsecret([...withoutToken(argv), '--token-file', file], flags, answer).line };
    return { say: `${spent}'s own token (api_token above):`, line: [...withoutToken(argv), '--token', own].map(quote).join(' ') };
  }
  const { line, notPrinted } = unsecret(argv, flags, answer);
  const again = notPrinted.length ? ` (${notPrinted.map((f) => `--${f}`).join(', ')} not printed: give ${notPrinted.length > 1 ? 'them' : 'it'} again)` : '';
  return { say: `${kept} Resume it by repeating the same command${again}:`, line };
}

/** `argv` as a shell line with every secret flag's value read back from the secrets file, or left out. */
function unsecret(argv: string[], flags: Flags, answer: unknown): { line: string; notPrinted: string[] } {
  const file = flags['secrets-file'];
  if (flags['show-secrets']) return { line: argv.map(quote).join(' '), notPrinted: [] };
  const wrapper = [wrapperOf(answer)].filter((k) => k !== undefined);
  const notPrinted: string[] = [];
  const readBack = (flag: string): string => {
    const path = SECRET_FLAGS[flag];
    const held = path && file ? valueAt(answer, [...wrapper, ...path]) : undefined;
    if (held !== undefined) return `"$(jq -r ${quote(`.${[...wrapper, ...path!].join('.')}`)} ${quote(file!)})"`;
    notPrinted.push(flag);
    return `'<your --${flag}>'`;
  };
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const inline = /^--([a-z-]+)=/.exec(word);
    const flag = inline?.[1] ?? (word.startsWith('--') ? word.slice(2) : undefined);
    if (flag === undefined || !(flag in SECRET_FLAGS)) words.push(quote(word));
    else if (inline) words.push(`${quote(`--${flag}`)}=${readBack(flag)}`);
    else if (i + 1 < argv.length) {
      words.push(quote(word), readBack(flag));
      i++;
    } else words.push(quote(word));
  }
  return { line: words.join(' '), notPrinted };
}

function valueAt(value: unknown, path: string[]): string | undefined {
  let at = value;
  for (const key of path) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return typeof at === 'string' ? at : undefined;
}
