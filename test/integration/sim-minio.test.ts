import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createMinioSimulator, type MinioSimulator } from '../../apps/lab/simulators/minio/index.js';
import { randomBytes } from 'node:crypto';
import { DerivedKeys, decryptData, encryptData, isEncrypted, timedArgon2idKey } from '../../backends/minio/madmin-crypto.js';
import { signRequest, type SigV4Credentials } from '../../backends/minio/sigv4.js';

// Fidelity of the MinIO simulator to MinIO's wire format: SigV4 refusals, the admin API's JSON
// errors and madmin-encrypted bodies, S3's XML errors and policy enforcement.
const ROOT: SigV4Credentials = { accessKey: 'rootadmin', secretKey: 'root-secret-123' };
const BUCKET = 'tenants';
let sim: MinioSimulator;
let server: RunningServer;

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
  text: string;
  json(): any;
}

async function call(
  method: string,
  path: string,
  o: {
    query?: Record<string, string>;
    body?: string | Uint8Array;
    creds?: SigV4Credentials | null;
    now?: Date;
    region?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const url = new URL(path, server.url);
  for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, v);
  const creds = o.creds === undefined ? ROOT : o.creds;
  const headers = creds ? signRequest({ method, url, body: o.body, headers: o.headers }, creds, { region: o.region ?? 'us-east-1', now: o.now }) : {};
  const res = await fetch(url, { method, headers, body: o.body });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, text: body.toString('utf8'), json: () => JSON.parse(body.toString('utf8')) };
}

const admin = (method: string, op: string, o: Parameters<typeof call>[2] = {}) => call(method, `/minio/admin/v3/${op}`, o);

async function addUser(accessKey: string, secretKey: string, status = 'enabled') {
  const body = await encryptData(ROOT.secretKey, Buffer.from(JSON.stringify({ secretKey, status })));
  return admin('PUT', 'add-user', { query: { accessKey }, body });
}

const codeOf = (xml: string) => /<Code>([^<]*)<\/Code>/.exec(xml)?.[1];

beforeAll(async () => {
  sim = createMinioSimulator({ rootAccessKey: ROOT.accessKey, rootSecretKey: ROOT.secretKey, buckets: [BUCKET] });
  server = await serveApp(sim.app);
});
afterAll(async () => {
  await server.close();
});

describe('SigV4 on the admin API', () => {
  it('answers a wrong secret with 403 SignatureDoesNotMatch as MinIO JSON', async () => {
    const res = await admin('GET', 'list-users', { creds: { accessKey: ROOT.accessKey, secretKey: 'wrong-secret' } });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.json()).toEqual({
      Code: 'SignatureDoesNotMatch',
      Message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      Resource: '/minio/admin/v3/list-users',
      RequestId: expect.stringMatching(/^[0-9A-F]{16}$/),
      HostId: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(res.headers.get('server')).toBe('MinIO');
    expect(res.headers.get('x-amz-request-id')).toBe(res.json().RequestId);
  });

  it.each([
    ['an unknown access key', { creds: { accessKey: 'nobody', secretKey: 'whatever1' } }, 403, 'InvalidAccessKeyId'],
    ['no Authorization header', { creds: null }, 403, 'AccessDenied'],
    ['a date 20 minutes off', { now: new Date(Date.now() - 20 * 60_000) }, 403, 'RequestTimeTooSkewed'],
    ['another region', { region: 'eu-west-1' }, 400, 'AuthorizationHeaderMalformed'],
  ] as const)('refuses %s', async (_what, o, status, code) => {
    const res = await admin('GET', 'list-users', o as Parameters<typeof call>[2]);
    expect(res.status).toBe(status);
    expect(res.json().Code).toBe(code);
  });

  it('refuses a body that does not match x-amz-content-sha256', async () => {
    const url = new URL('/minio/admin/v3/add-canned-policy?name=x', server.url);
    const headers = signRequest({ method: 'PUT', url, body: '{"a":1}' }, ROOT, { region: 'us-east-1' });
    const res = await fetch(url, { method: 'PUT', headers, body: '{"a":2}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).Code).toBe('XAmzContentSHA256Mismatch');
  });

  it('refuses the admin API to a non-admin user with AccessDenied', async () => {
    expect((await addUser('plainuser', 'plain-secret-1')).status).toBe(200);
    const res = await admin('GET', 'list-users', { creds: { accessKey: 'plainuser', secretKey: 'plain-secret-1' } });
    expect(res.status).toBe(403);
    expect(res.json().Code).toBe('AccessDenied');
  });
});

describe('users', () => {
  it('adds a user from a madmin-encrypted body and reports it without its secret', async () => {
    const res = await addUser('alice', 'alice-secret-1');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(sim.state.users.get('alice')?.secretKey).toBe('alice-secret-1');
    const info = await admin('GET', 'user-info', { query: { accessKey: 'alice' } });
    expect(info.status).toBe(200);
    expect(info.json()).toEqual({ status: 'enabled', updatedAt: expect.any(String) });
  });

  it('refuses a body encrypted with another password, or not encrypted, as XMinioAdminConfigBadJSON', async () => {
    const wrong = await encryptData('not-the-root-secret', Buffer.from('{"secretKey":"abcdefgh1","status":"enabled"}'));
    for (const body of [wrong, Buffer.from('{"secretKey":"abcdefgh1","status":"enabled"}')]) {
      const res = await admin('PUT', 'add-user', { query: { accessKey: 'mallory' }, body });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ Code: 'XMinioAdminConfigBadJSON', Message: 'JSON configuration provided is of incorrect format' });
    }
    expect(sim.state.users.has('mallory')).toBe(false);
  });

  it('reads bodies sealed under one salt as MinIO does: each as slow as a derivation, a wrong password or a changed byte refused', async () => {
    // The adapter seals many bodies under one derived key (DerivedKeys); MinIO derives the salt's
    // key for every body, so every one costs the caller a derivation's time.
    const keys = new DerivedKeys();
    const sealed = async (password: string, secretKey: string) =>
      encryptData(password, Buffer.from(JSON.stringify({ secretKey, status: 'enabled' })), { derived: await keys.of(password) });
    const timedAdd = async (accessKey: string, body: Buffer) => {
      const started = performance.now();
      const res = await admin('PUT', 'add-user', { query: { accessKey }, body });
      return { res, ms: performance.now() - started };
    };
    const derivation = (await timedArgon2idKey(ROOT.secretKey, randomBytes(32))).ms;
    const first = await timedAdd('salted1', await sealed(ROOT.secretKey, 'salted-secret-1'));
    expect(first.res.status).toBe(200);
    // The simulator holds a remembered salt for the time its own first derivation took (`first`);
    // the test's derivation may have run at another moment of a busy host's load, so the bound is
    // half the smaller of the two (a body read without the wait takes a few ms against ~100).
    const bound = Math.min(derivation, first.ms) / 2;
    for (const n of [2, 3]) {
      const again = await timedAdd(`salted${n}`, await sealed(ROOT.secretKey, `salted-secret-${n}`));
      expect(again.res.status).toBe(200);
      expect(
        again.ms,
        `body ${n} under a salt the simulator has read (a derivation here: ${derivation.toFixed(0)} ms, the first body ${first.ms.toFixed(0)} ms)`,
      ).toBeGreaterThanOrEqual(bound);
    }
    expect(sim.state.users.get('salted3')?.secretKey).toBe('salted-secret-3');
    // The same salt under another password: not the key the simulator remembers.
    const rootKey = await keys.of(ROOT.secretKey);
    const wrong = await encryptData('not-the-root-secret', Buffer.from('{"secretKey":"abcdefgh1","status":"enabled"}'), {
      derived: { salt: rootKey.salt, key: (await timedArgon2idKey('not-the-root-secret', rootKey.salt)).key },
    });
    const changed = Buffer.from(await sealed(ROOT.secretKey, 'abcdefgh2'));
    changed[changed.length - 1]! ^= 1;
    for (const body of [wrong, changed]) {
      const res = await admin('PUT', 'add-user', { query: { accessKey: 'mallory' }, body });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ Code: 'XMinioAdminConfigBadJSON' });
    }
    expect(sim.state.users.has('mallory')).toBe(false);
  });

  it.each([
    ['a short secret', 'shortie', 'short', 'XMinioAdminInvalidSecretKey', 400],
    ['the root access key', ROOT.accessKey, 'long-enough-secret', 'XMinioInvalidIAMCredentials', 403],
  ])('refuses %s', async (_what, accessKey, secretKey, code, status) => {
    const res = await addUser(accessKey, secretKey);
    expect(res.status).toBe(status);
    expect(res.json().Code).toBe(code);
  });

  it('answers list-users with a madmin-encrypted map that opens with the root secret only', async () => {
    const res = await admin('GET', 'list-users');
    expect(res.status).toBe(200);
    expect(isEncrypted(res.body)).toBe(true);
    const users = JSON.parse((await decryptData(ROOT.secretKey, res.body)).toString());
    expect(users.alice).toEqual({ status: 'enabled', updatedAt: expect.any(String) });
    expect(JSON.stringify(users)).not.toContain('alice-secret-1');
    await expect(decryptData('someone-else', res.body)).rejects.toThrow();
  });

  it('answers an unknown user with 404 XMinioAdminNoSuchUser, on info and on removal', async () => {
    for (const [method, op] of [
      ['GET', 'user-info'],
      ['DELETE', 'remove-user'],
    ] as const) {
      const res = await admin(method, op, { query: { accessKey: 'ghost' } });
      expect(res.status).toBe(404);
      expect(res.json()).toMatchObject({ Code: 'XMinioAdminNoSuchUser', Message: 'The specified user does not exist.', Resource: `/minio/admin/v3/${op}` });
    }
  });
});

const POLICY = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::tenants/alice/*' }],
};

describe('canned policies', () => {
  it('stores a policy and returns it re-marshalled, v1 (document) and v2 (PolicyInfo)', async () => {
    expect((await admin('PUT', 'add-canned-policy', { query: { name: 'p-alice' }, body: JSON.stringify(POLICY) })).status).toBe(200);
    const v1 = await admin('GET', 'info-canned-policy', { query: { name: 'p-alice' } });
    expect(v1.json()).toEqual({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: ['arn:aws:s3:::tenants/alice/*'] }],
    });
    expect(v1.text).toContain('\n "Version"');
    const v2 = await admin('GET', 'info-canned-policy', { query: { name: 'p-alice', v: '2' } });
    expect(v2.json()).toMatchObject({ PolicyName: 'p-alice', Policy: v1.json(), CreateDate: expect.any(String), UpdateDate: expect.any(String) });
  });

  it('ships the built-in policies', async () => {
    const res = await admin('GET', 'info-canned-policy', { query: { name: 'readwrite' } });
    expect(res.json().Statement[0].Action).toEqual(['s3:*']);
  });

  it.each([
    ['broken JSON', '{"Version":', 'XMinioMalformedIAMPolicy'],
    [
      'a bad Effect',
      JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Perhaps', Action: 's3:GetObject', Resource: 'arn:aws:s3:::x/*' }] }),
      'XMinioMalformedIAMPolicy',
    ],
    ['no Version', JSON.stringify({ Statement: POLICY.Statement }), 'MalformedPolicy'],
  ])('refuses %s with 400 %s', async (_what, body, code) => {
    const res = await admin('PUT', 'add-canned-policy', { query: { name: 'bad' }, body });
    expect(res.status).toBe(400);
    expect(res.json().Code).toBe(code);
  });

  it('answers an unknown policy with 404 XMinioAdminNoSuchPolicy', async () => {
    const res = await admin('GET', 'info-canned-policy', { query: { name: 'nope' } });
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ Code: 'XMinioAdminNoSuchPolicy', Message: 'The canned policy does not exist.' });
  });

  it('maps a policy to a user with set-user-or-group-policy, replacing what was mapped', async () => {
    const set = (policyName: string, userOrGroup = 'alice') =>
      admin('PUT', 'set-user-or-group-policy', { query: { policyName, userOrGroup, isGroup: 'false' } });
    expect((await set('readonly')).status).toBe(200);
    expect((await set('p-alice')).status).toBe(200);
    expect((await admin('GET', 'user-info', { query: { accessKey: 'alice' } })).json().policyName).toBe('p-alice');
    expect((await set('nope')).json().Code).toBe('XMinioAdminNoSuchPolicy');
    expect((await set('p-alice', 'ghost')).json().Code).toBe('XMinioAdminNoSuchUser');
  });

  it('refuses to remove a policy in use, and removes an absent one quietly', async () => {
    const inUse = await admin('DELETE', 'remove-canned-policy', { query: { name: 'p-alice' } });
    expect(inUse.status).toBe(400);
    expect(inUse.json().Code).toBe('XMinioAdminPolicyInUse');
    expect((await admin('DELETE', 'remove-canned-policy', { query: { name: 'never-was' } })).status).toBe(200);
  });

  it('answers an unknown admin call as MinIO does', async () => {
    const res = await admin('POST', 'no-such-call');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ Code: 'BadRequest', Message: "An unsupported API call for method: POST at '/minio/admin/v3/no-such-call'" });
  });
});

describe('S3 with a user bound by a canned policy', () => {
  const alice = { accessKey: 'alice', secretKey: 'alice-secret-1' };

  it('lets the policy grant GetObject and refuses PutObject with S3 AccessDenied XML', async () => {
    expect((await call('PUT', `/${BUCKET}/alice/a.txt`, { body: 'hello' })).status).toBe(200);
    const got = await call('GET', `/${BUCKET}/alice/a.txt`, { creds: alice });
    expect(got.status).toBe(200);
    expect(got.text).toBe('hello');
    expect(got.headers.get('etag')).toBe('"5d41402abc4b2a76b9719d911017c592"');

    const put = await call('PUT', `/${BUCKET}/alice/b.txt`, { creds: alice, body: 'x' });
    expect(put.status).toBe(403);
    expect(put.headers.get('content-type')).toBe('application/xml');
    expect(put.text).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error><Code>AccessDenied<\/Code><Message>Access Denied.<\/Message><Key>alice\/b.txt<\/Key><BucketName>tenants<\/BucketName><Resource>\/tenants\/alice\/b.txt<\/Resource><RequestId>[0-9A-F]+<\/RequestId><HostId>[0-9a-f]+<\/HostId><\/Error>$/,
    );
  });

  it('hides whether a key exists from a user who may not list (AccessDenied), not from root (NoSuchKey)', async () => {
    expect(codeOf((await call('GET', `/${BUCKET}/alice/missing`, { creds: alice })).text)).toBe('AccessDenied');
    const root = await call('GET', `/${BUCKET}/alice/missing`);
    expect(root.status).toBe(404);
    expect(codeOf(root.text)).toBe('NoSuchKey');
  });

  it('answers HEAD on an object with its headers, and HeadBucket per s3:ListBucket', async () => {
    const head = await call('HEAD', `/${BUCKET}/alice/a.txt`, { creds: alice });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('5');
    expect((await call('HEAD', `/${BUCKET}`)).status).toBe(200);
    const denied = await call('HEAD', `/${BUCKET}`, { creds: alice });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('x-minio-error-code')).toBe('AccessDenied');
  });

  it('answers an S3 signature refusal in XML', async () => {
    const res = await call('GET', `/${BUCKET}/alice/a.txt`, { creds: { accessKey: 'alice', secretKey: 'not-her-secret' } });
    expect(res.status).toBe(403);
    expect(codeOf(res.text)).toBe('SignatureDoesNotMatch');
  });

  it('lists with ListObjectsV2 XML, honouring prefix, delimiter and pages', async () => {
    for (const k of ['alice/c/1', 'alice/c/2', 'alice/d']) await call('PUT', `/${BUCKET}/${k}`, { body: k });
    const res = await call('GET', `/${BUCKET}`, { query: { 'list-type': '2', prefix: 'alice/', delimiter: '/' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>tenants</Name><Prefix>alice/</Prefix>');
    expect([...res.text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1])).toEqual(['alice/a.txt', 'alice/d']);
    expect(res.text).toContain('<CommonPrefixes><Prefix>alice/c/</Prefix></CommonPrefixes>');
    expect(res.text).toContain('<KeyCount>3</KeyCount>');

    const page1 = await call('GET', `/${BUCKET}`, { query: { 'list-type': '2', prefix: 'alice/', 'max-keys': '2' } });
    expect(page1.text).toContain('<IsTruncated>true</IsTruncated>');
    const token = /<NextContinuationToken>([^<]*)</.exec(page1.text)?.[1] ?? '';
    const page2 = await call('GET', `/${BUCKET}`, { query: { 'list-type': '2', prefix: 'alice/', 'max-keys': '2', 'continuation-token': token } });
    const keys = [page1, page2].flatMap((p) => [...p.text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]));
    expect(keys).toEqual(['alice/a.txt', 'alice/c/1', 'alice/c/2', 'alice/d']);
  });

  it('denies a listing the policy does not grant', async () => {
    const res = await call('GET', `/${BUCKET}`, { creds: alice, query: { 'list-type': '2', prefix: 'alice/' } });
    expect(res.status).toBe(403);
    expect(codeOf(res.text)).toBe('AccessDenied');
  });

  it('refuses a disabled user as InvalidAccessKeyId', async () => {
    expect((await addUser('dora', 'dora-secret-1', 'disabled')).status).toBe(200);
    const res = await call('GET', `/${BUCKET}/x`, { creds: { accessKey: 'dora', secretKey: 'dora-secret-1' } });
    expect(res.status).toBe(403);
    expect(res.text).toContain('<Code>InvalidAccessKeyId</Code><Message>Your account is disabled; please contact your administrator.</Message>');
  });
});

describe('fault injection', () => {
  it('fails the next matching call with the planned status, then recovers', async () => {
    await fetch(`${server.url}/__lab/faults`, { method: 'POST', body: JSON.stringify({ fail_next: 1, status: 503, match: 'user-info' }) });
    expect((await admin('GET', 'user-info', { query: { accessKey: 'alice' } })).status).toBe(503);
    expect((await admin('GET', 'user-info', { query: { accessKey: 'alice' } })).status).toBe(200);
  });
});
