import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './args.js';
import { resumeCommand } from './credential.js';

const ENROLLMENT = 'enr1.abc';
const OWN = 'dvt1.acme.n.m';
const FAILED = { error: 'backend step "dns" failed', tenant: { name: 'acme', api_token: OWN } };

/** What tenantctl prints after a failed create (502): the command line, from its argv and environment. */
function printed(argv: string[], env: Record<string, string> = {}): string {
  return resumeCommand(argv, parseCommandLine(argv).flags, env, FAILED).argv.join(' ');
}

describe('the command that resumes a failed create', () => {
  it.each([
    [
      'an operator repeats the same command',
      ['tenant', 'create', 'acme', '--secrets-file', 'a.json'],
      { TENANT_API_TOKEN: 'op' },
      'tenant create acme --secrets-file a.json',
    ],
    [
      "an enrolled create (token in the environment) resumes with the tenant's token from its secrets file",
      ['tenant', 'create', 'acme', '--secrets-file', 'a.json'],
      { TENANT_API_TOKEN: ENROLLMENT },
      'tenant create acme --secrets-file a.json --token-file a.json',
    ],
    [
      'an enrolled create given --token: the spent token is left out of what is printed',
      ['--token', ENROLLMENT, 'tenant', 'create', 'acme', '--secrets-file', 'a.json'],
      {},
      'tenant create acme --secrets-file a.json --token-file a.json',
    ],
    [
      'the same with --token=',
      [`--token=${ENROLLMENT}`, 'tenant', 'create', 'acme', '--secrets-file', 'a.json'],
      {},
      'tenant create acme --secrets-file a.json --token-file a.json',
    ],
    [
      'an enrolled create with --show-secrets (no file): the token itself, already on the screen',
      ['tenant', 'create', 'acme', '--show-secrets'],
      { TENANT_API_TOKEN: ENROLLMENT },
      `tenant create acme --show-secrets --token ${OWN}`,
    ],
    [
      "the tenant's own token repeats the same command",
      ['tenant', 'create', 'acme', '--secrets-file', 'a.json'],
      { TENANT_API_TOKEN: OWN },
      'tenant create acme --secrets-file a.json',
    ],
  ])('%s', (_reason, argv, env, want) => {
    expect(printed(argv, env)).toBe(want);
  });
});
