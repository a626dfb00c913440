import { readFileSync } from 'node:fs';
import { UsageError, type Flags } from './args.js';

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
    kept = JSON.parse(readFileSync(file, 'utf8'));
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

/**
 * The command that resumes a create that failed at a step (502), and what to say before it. The
 * same command, except after an enrolled create: its enrollment token was spent by that create
 * (a repeat with it is 401), and the tenant's own token, in the answer, resumes it: from the
 * secrets file it was written to, or (--show-secrets) as the token itself, already on the screen.
 */
export function resumeCommand(argv: string[], flags: Flags, env: NodeJS.ProcessEnv, answer: unknown): { say: string; argv: string[] } {
  const same = { say: 'The work is kept where it stopped. Resume it by repeating the same command:', argv };
  const credential = flags['token-file'] === undefined ? (flags.token ?? env.TENANT_API_TOKEN) : undefined;
  const own = apiTokenOf(answer);
  if (!credential || !ENROLLMENT.test(credential) || !own) return same;
  const file = flags['secrets-file'];
  const spent = 'The work is kept where it stopped. The enrollment token was spent by this create; resume it with the tenant';
  if (file) return { say: `${spent}'s own token, kept in ${file}:`, argv: [...withoutToken(argv), '--token-file', file] };
  return { say: `${spent}'s own token (api_token above):`, argv: [...withoutToken(argv), '--token', own] };
}
