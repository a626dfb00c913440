import { describe, expect, it } from 'vitest';
import { callerId, carriesSecret, keepsAnswer, objectOf, pathMatcher, readIdempotencyKey, requestHash } from './request.js';
import { SECRET_FIELDS } from '../logger.js';

describe('readIdempotencyKey', () => {
  it.each([
    { reason: 'no header: behaviour is the spec’s', header: undefined, want: { kind: 'absent' } },
    { reason: 'a UUID', header: '8e03978e-40d5-43e8-bc93-6894a57f9324', want: { kind: 'key', key: '8e03978e-40d5-43e8-bc93-6894a57f9324' } },
    { reason: 'the draft’s sf-string form is unquoted', header: '"abc-1"', want: { kind: 'key', key: 'abc-1' } },
    { reason: 'surrounding blanks are not part of it', header: '  k1 ', want: { kind: 'key', key: 'k1' } },
    { reason: 'empty', header: '', want: { kind: 'invalid' } },
    { reason: 'an inner space', header: 'a b', want: { kind: 'invalid' } },
    { reason: 'non-ASCII', header: 'clé', want: { kind: 'invalid' } },
    { reason: 'longer than 255', header: 'k'.repeat(256), want: { kind: 'invalid' } },
    { reason: '255 is the bound', header: 'k'.repeat(255), want: { kind: 'key', key: 'k'.repeat(255) } },
  ])('$reason', ({ header, want }) => {
    expect(readIdempotencyKey(header)).toMatchObject(want);
  });
});

describe('requestHash', () => {
  const base = requestHash('POST', '/v1/tenants', '{"name":"acme","index":3}');
  it.each([
    { reason: 'other spacing and key order is the same request', method: 'post', path: '/v1/tenants', body: '{ "index": 3, "name": "acme" }', same: true },
    { reason: 'another value', method: 'POST', path: '/v1/tenants', body: '{"name":"acme","index":4}', same: false },
    { reason: 'another field', method: 'POST', path: '/v1/tenants', body: '{"name":"acme","index":3,"tsig_secret":"x"}', same: false },
    { reason: 'another path', method: 'POST', path: '/v1/admissions', body: '{"name":"acme","index":3}', same: false },
    { reason: 'another method', method: 'PUT', path: '/v1/tenants', body: '{"name":"acme","index":3}', same: false },
  ])('$reason', ({ method, path, body, same }) => {
    expect(requestHash(method, path, body) === base).toBe(same);
  });
  it('hashes a body that is not JSON as sent', () => {
    expect(requestHash('POST', '/p', '{nope')).not.toBe(requestHash('POST', '/p', '{nope '));
  });
});

describe('callerId', () => {
  const key = Buffer.alloc(32, 7);
  it('is stable per credential, differs between credentials and keys, and is not the credential', () => {
    expect(callerId(key, 'tok-a')).toBe(callerId(key, 'tok-a'));
    expect(callerId(key, 'tok-a')).not.toBe(callerId(key, 'tok-b'));
    expect(callerId(Buffer.alloc(32, 8), 'tok-a')).not.toBe(callerId(key, 'tok-a'));
    expect(callerId(key, 'tok-a')).not.toContain('tok-a');
  });
});

describe('keepsAnswer', () => {
  it.each([
    [200, true, 'a resume or reconcile'],
    [201, true, 'a create'],
    [401, false, 'authentication answers it again, with its WWW-Authenticate'],
    [404, true, 'a refusal is the answer'],
    [409, true, 'a refusal is the answer'],
    [422, true, 'a refusal is the answer'],
    [500, false, 'not an answer: the repeat runs again'],
    [502, false, 'a failed step: the repeat resumes'],
    [503, false, 'unavailable: the repeat retries'],
  ])('%i → %s (%s)', (status, kept) => {
    expect(keepsAnswer(status)).toBe(kept);
  });
});

describe('pathMatcher', () => {
  it.each([
    ['/v1/tenants/{t}/records/{record}', '/v1/tenants/acme/records/www', true],
    ['/v1/tenants/{t}/records/{record}', '/v1/tenants/acme/records', false],
    ['/v1/tenants/{t}/records/{record}', '/v1/tenants/acme/records/www/x', false],
    ['/v1/tenants', '/v1/tenants', true],
    ['/v1/tenants', '/v1/tenants/acme', false],
    ['/v1/tenants/{t}/devices/{device}/address', '/v1/tenants/a/devices/d1/address', true],
  ])('%s matches %s: %s', (template, path, want) => {
    expect(pathMatcher(template).test(path)).toBe(want);
  });
});

describe('objectOf (what a kept answer is purged with)', () => {
  it.each([
    ['POST', '/v1/tenants', '{"name":"acme"}', 'tenants/acme', 'a tenant create names the tenant its DELETE takes'],
    ['DELETE', '/v1/tenants/acme', '', 'tenants/acme', 'the delete of it'],
    [
      'POST',
      '/v1/tenants/acme/wifi-keys',
      '{"trust_class":"sensor","name":"sensors"}',
      'tenants/acme/wifi-keys/sensors',
      "a collection's POST: its member by name",
    ],
    ['DELETE', '/v1/tenants/acme/wifi-keys/sensors', '', 'tenants/acme/wifi-keys/sensors', 'the delete of it'],
    ['PUT', '/v1/tenants/acme/records/www', '{"address":"10.128.1.50"}', 'tenants/acme/records/www', 'a PUT names its path'],
    ['POST', '/v1/tenants/acme/devices/probe/address', '{}', 'tenants/acme/devices/probe/address', 'a singleton POST: its path'],
    ['POST', '/v1/admissions', '{"name":"beta"}', 'tenants/beta/wifi-keys/admission', 'an admission is its Wi-Fi key'],
    ['DELETE', '/v1/admissions/beta', '', 'tenants/beta/wifi-keys/admission', 'withdrawn: the same key'],
    ['POST', '/v1/tenants/acme/broker-accounts', 'not json', 'tenants/acme/broker-accounts', 'a body that is no JSON names no member'],
  ])('%s %s %s → %s (%s)', (method, path, body, want) => {
    expect(objectOf(method, path, body)).toBe(want);
  });
});

describe('carriesSecret', () => {
  it.each([
    ['{"name":"s","psk":"x"}', true, "a Wi-Fi key's psk"],
    ['{"name":"acme","dns":{"tsig_secret":"x"}}', true, 'a nested secret'],
    ['{"name":"app","publish":["acme/#"]}', false, 'an account issued again: no password'],
    ['{"error":"password: not this account\'s"}', false, 'a field named in a message is no field'],
    ['', false, 'no body'],
  ])('%s → %s (%s)', (body, want) => {
    expect(carriesSecret(body, SECRET_FIELDS)).toBe(want);
  });
});
