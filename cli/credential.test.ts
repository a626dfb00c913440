import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './args.js';
import { resumeCommand } from './credential.js';

const ENROLLMENT = 'enr1.abc';
const OWN = 'dvt1.acme.n.m';
const FAILED = { error: 'backend step "dns" failed', tenant: { name: 'acme', api_token: OWN, dns: { tsig_secret: 'TSIG==' }, state: { secret_key: 'STATE' } } };
const FAILED_KEY = { error: 'backend step "wifi" failed', wifi_key: { name: 'k1', psk: 'PSK' } };

/** What tenantctl prints after a failed create (502): the command line, from its argv and environment. */
function printed(argv: string[], env: Record<string, string> = {}, answer: unknown = FAILED): string {
  return resumeCommand(argv, parseCommandLine(argv).flags, env, answer).line;
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

// A secret given as a flag would otherwise be printed on stderr, which a CI job or a terminal log keeps.
describe('the resume line never prints a secret given as a flag', () => {
  const restore = [
    'tenant',
    'create',
    'acme',
    '--tsig-secret',
    'given-tsig',
    '--state-secret=given-state',
    '--api-token',
    'given-token',
    '--secrets-file',
    'a b.json',
  ];
  it.each([
    [
      "a restore: each secret read back from the failed answer's file, the token as the answer holds it",
      restore,
      FAILED,
      `tenant create acme --tsig-secret "$(jq -r .tenant.dns.tsig_secret 'a b.json')" --state-secret="$(jq -r .tenant.state.secret_key 'a b.json')" --api-token "$(jq -r .tenant.api_token 'a b.json')" --secrets-file 'a b.json'`,
    ],
    [
      "a Wi-Fi key's psk",
      ['wifi-key', 'create', 'acme', 'k1', '--trust-class', 'sensor', '--psk', 'given psk', '--secrets-file', 'k.json'],
      FAILED_KEY,
      `wifi-key create acme k1 --trust-class sensor --psk "$(jq -r .wifi_key.psk k.json)" --secrets-file k.json`,
    ],
    [
      'with --show-secrets, as typed: its secrets are on the screen already',
      ['tenant', 'create', 'acme', '--tsig-secret', 'given-tsig', '--show-secrets'],
      FAILED,
      'tenant create acme --tsig-secret given-tsig --show-secrets',
    ],
  ])('%s', (_reason, argv, answer, want) => {
    const line = printed(argv, { TENANT_API_TOKEN: 'op' }, answer);
    expect(line).toBe(want);
    if (!argv.includes('--show-secrets')) for (const given of ['given-tsig', 'given-state', 'given-token', 'given psk']) expect(line).not.toContain(given);
  });

  it('a --token the answer does not hold is left out, and the person told to give it again', () => {
    const argv = ['--token', 'operator-secret', 'tenant', 'create', 'acme', '--secrets-file', 'a.json'];
    const r = resumeCommand(argv, parseCommandLine(argv).flags, {}, FAILED);
    expect(r.line).toBe("--token '<your --token>' tenant create acme --secrets-file a.json");
    expect(r.say).toBe('The work is kept where it stopped. Resume it by repeating the same command (--token not printed: give it again):');
  });
});
