import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSecretsFile, objectOf, writeSecretsFile, type SecretsOwner } from './secrets-file.js';

const dir = mkdtempSync(join(tmpdir(), 'secrets-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const acme: SecretsOwner = { what: 'tenant "acme"', is: (o) => o.name === 'acme' && 'index' in o };
const created = { name: 'acme', index: 1, dns: { zone: 'acme.x', tsig_secret: 'T1' }, state: { secret_key: 'S1' }, api_token: 'A1', log: { read_token: 'R1' } };
const failed = { error: 'backend step "dns" failed', tenant: { name: 'acme', index: 1, dns: { tsig_secret: 'T1' }, api_token: 'A1' } };
const reconciled = { name: 'acme', index: 1, dns: { zone: 'acme.x' }, state: {}, log: { read_token: 'R2' }, outcome: 'reconciled' };

let n = 0;
function file(content?: string): string {
  const path = join(dir, `f${n++}.json`);
  if (content !== undefined) writeFileSync(path, content);
  return path;
}

describe('the object an answer or a file is about', () => {
  it.each([
    ['an answer', created, created],
    ["a failed call's partial object", failed, failed.tenant],
    ['a failure with no object', { error: 'x' }, undefined],
    ['not an object', ['acme'], undefined],
  ])('%s', (_case, answer, object) => expect(objectOf(answer)).toEqual(object));
});

describe('a secrets file is checked before the call', () => {
  it.each([
    ['a new file in a folder that can be written', () => join(dir, 'new.json'), undefined],
    ['the same tenant (a repeat, a reconcile)', () => file(JSON.stringify(created)), undefined],
    ["the same tenant's failed create (its resume)", () => file(JSON.stringify(failed)), undefined],
    ["another tenant's secrets", () => file(JSON.stringify({ ...created, name: 'beta' })), 'holds the secrets of "beta", not the secrets of tenant "acme"'],
    ['a Wi-Fi key of the same name', () => file(JSON.stringify({ name: 'acme', ssid: 'x', psk: 'p' })), 'not the secrets of tenant "acme"'],
    [
      'a file that is not JSON (a key, a config)',
      () => file('-----BEGIN OPENSSH PRIVATE KEY-----\n'),
      'exists and is not a secrets file tenantctl can write (not JSON)',
    ],
    ['a folder that does not exist', () => join(dir, 'nowhere', 'x.json'), 'its folder cannot be written (ENOENT)'],
  ])('%s', (_case, path, refusal) => {
    const check = () => checkSecretsFile(path(), acme);
    if (refusal) expect(check).toThrow(refusal);
    else expect(check).not.toThrow();
  });

  it('the refusal never names a secret or a name that is not plain', () => {
    const path = file(JSON.stringify({ name: 'A1-secret\n', index: 1, api_token: 'A1' }));
    expect(() => checkSecretsFile(path, acme)).toThrow(/holds the secrets of another object,/);
  });
});

describe('writing keeps what the file held for the same object', () => {
  it("a reconcile's answer over the create's file keeps the create's secrets, and its own read token replaces the old", () => {
    const path = file(JSON.stringify(created));
    expect(writeSecretsFile(path, reconciled)).toEqual(['dns.tsig_secret', 'state.secret_key', 'api_token']);
    const written = JSON.parse(readFileSync(path, 'utf8'));
    expect(written).toEqual({ ...reconciled, dns: { zone: 'acme.x', tsig_secret: 'T1' }, state: { secret_key: 'S1' }, api_token: 'A1' });
  });

  it('a resumed create over its failed partial: the answer as it is, a new token replacing the old', () => {
    const path = file(JSON.stringify(failed));
    const resumed = { ...created, api_token: 'A2' };
    expect(writeSecretsFile(path, resumed)).toEqual([]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(resumed);
  });

  it('a failed repeat over a complete answer keeps every secret inside its partial object', () => {
    const path = file(JSON.stringify(created));
    const again = { error: 'backend step "dns" failed', tenant: { name: 'acme', index: 1, dns: { zone: 'acme.x' } } };
    writeSecretsFile(path, again);
    const written = JSON.parse(readFileSync(path, 'utf8'));
    expect(written.tenant).toMatchObject({ api_token: 'A1', dns: { tsig_secret: 'T1' }, state: { secret_key: 'S1' }, log: { read_token: 'R1' } });
  });

  it('is mode 0600, also when the file was readable by others before', () => {
    const path = file(JSON.stringify(created));
    chmodSync(path, 0o644);
    writeSecretsFile(path, created);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
