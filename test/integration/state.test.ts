import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createMinioSimulator, type MinioSimulator } from '../../apps/lab/simulators/minio/index.js';
import { createMinioStateAdapter, type StateAdapter, type StateSpec } from '../../backends/minio/minio.js';
import { BackendError } from '../../core/backend-outcome.js';
import { signRequest, type SigV4Credentials } from '../../backends/minio/sigv4.js';

// The state adapter against the MinIO simulator: what a tenant notices is whether its own
// credentials can read and write its prefix, and nothing else, after every ensure.
const ROOT = { accessKey: 'siteadmin', secretKey: 'site-admin-secret-0001' };
const BUCKET = 'tenants';
let sim: MinioSimulator;
let server: RunningServer;
let adapter: StateAdapter;

const spec = (name: string, secretKey = `${name}-secret-0123456789`): StateSpec => ({ tenant: name, accessKey: name, secretKey, prefix: `${name}/` });
const credsOf = (s: StateSpec): SigV4Credentials => ({ accessKey: s.accessKey, secretKey: s.secretKey });

async function s3(creds: SigV4Credentials, method: string, path: string, o: { body?: string; query?: Record<string, string> } = {}) {
  const url = new URL(path, server.url);
  for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, v);
  const headers = signRequest({ method, url, body: o.body }, creds, { region: 'us-east-1' });
  const res = await fetch(url, { method, headers, body: o.body });
  const text = await res.text();
  return { status: res.status, text, code: /<Code>([^<]*)<\/Code>/.exec(text)?.[1] };
}

const results = (outcomes: { object: string; result: string }[]) => Object.fromEntries(outcomes.map((o) => [o.object, o.result]));

beforeAll(async () => {
  sim = createMinioSimulator({ rootAccessKey: ROOT.accessKey, rootSecretKey: ROOT.secretKey, buckets: [BUCKET] });
  server = await serveApp(sim.app);
  adapter = createMinioStateAdapter({ endpoint: server.url, ...ROOT, bucket: BUCKET });
});
afterAll(async () => {
  await server.close();
});

describe('ensure', () => {
  const acme = spec('acme');
  const beta = spec('beta');

  it('creates the policy, the user and the mapping', async () => {
    expect(results(await adapter.ensure(acme))).toEqual({
      'policy tenant-acme': 'created',
      'user acme': 'created',
      'policy mapping tenant-acme -> user acme': 'created',
    });
    expect(sim.state.users.get('acme')).toMatchObject({ secretKey: acme.secretKey, status: 'enabled', policies: ['tenant-acme'] });
    expect(sim.state.policies.has('tenant-acme')).toBe(true);
    await adapter.ensure(beta);
  });

  it('lets the tenant read, write, delete and list its own prefix', async () => {
    expect((await s3(credsOf(acme), 'PUT', `/${BUCKET}/acme/state.json`, { body: '{"v":1}' })).status).toBe(200);
    const got = await s3(credsOf(acme), 'GET', `/${BUCKET}/acme/state.json`);
    expect(got).toMatchObject({ status: 200, text: '{"v":1}' });
    const list = await s3(credsOf(acme), 'GET', `/${BUCKET}`, { query: { 'list-type': '2', prefix: 'acme/' } });
    expect(list.status).toBe(200);
    expect(list.text).toContain('<Key>acme/state.json</Key>');
    expect((await s3(credsOf(acme), 'PUT', `/${BUCKET}/acme/tmp`, { body: 'x' })).status).toBe(200);
    expect((await s3(credsOf(acme), 'DELETE', `/${BUCKET}/acme/tmp`)).status).toBe(204);
    expect((await s3(credsOf(acme), 'GET', `/${BUCKET}`, { query: { location: '' } })).status).toBe(200);
  });

  it('refuses the tenant everything outside its prefix with 403 AccessDenied', async () => {
    expect((await s3(credsOf(beta), 'PUT', `/${BUCKET}/beta/own`, { body: 'b' })).status).toBe(200);
    const denied = [
      await s3(credsOf(acme), 'GET', `/${BUCKET}/beta/own`),
      await s3(credsOf(acme), 'PUT', `/${BUCKET}/beta/planted`, { body: 'x' }),
      await s3(credsOf(acme), 'DELETE', `/${BUCKET}/beta/own`),
      await s3(credsOf(acme), 'PUT', `/${BUCKET}/shared/x`, { body: 'x' }),
      // a prefix without the slash would reach acme2/, acmecorp/...
      await s3(credsOf(acme), 'PUT', `/${BUCKET}/acmecorp/x`, { body: 'x' }),
      await s3(credsOf(acme), 'GET', `/${BUCKET}`, { query: { 'list-type': '2', prefix: 'beta/' } }),
      await s3(credsOf(acme), 'GET', `/${BUCKET}`, { query: { 'list-type': '2', prefix: '' } }),
    ];
    for (const d of denied) expect({ status: d.status, code: d.code }).toEqual({ status: 403, code: 'AccessDenied' });
    expect(sim.state.buckets.get(BUCKET)?.get('beta/own')?.body.toString()).toBe('b');
  });

  it('is in place the second time, with no write to MinIO', async () => {
    const before = sim.state.calls.length;
    expect(Object.values(results(await adapter.ensure(acme)))).toEqual(['in-place', 'in-place', 'in-place']);
    const writes = sim.state.calls.slice(before).filter((c) => c.method !== 'GET');
    expect(writes).toEqual([]);
  });

  it('observes what is there', async () => {
    expect(await adapter.observe(acme)).toEqual({
      policy: { name: 'tenant-acme', exists: true, current: true },
      user: { exists: true, enabled: true, policies: ['tenant-acme'], secretCurrent: true },
    });
    expect(await adapter.observe({ ...spec('nobody'), secretKey: undefined })).toEqual({
      policy: { name: 'tenant-nobody', exists: false, current: false },
      user: { exists: false, enabled: false, policies: [] },
    });
  });
});

describe('drift', () => {
  const acme = spec('acme');

  it('restores a policy widened to the whole bucket', async () => {
    sim.state.policies.get('tenant-acme')!.document = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: ['s3:*'], Resource: ['arn:aws:s3:::tenants/*'] }],
    };
    expect((await s3(credsOf(acme), 'PUT', `/${BUCKET}/beta/intrusion`, { body: 'x' })).status).toBe(200);
    expect(results(await adapter.ensure(acme))['policy tenant-acme']).toBe('corrected');
    expect((await s3(credsOf(acme), 'PUT', `/${BUCKET}/beta/intrusion2`, { body: 'x' })).code).toBe('AccessDenied');
  });

  it('recreates a removed user and its mapping', async () => {
    sim.state.users.delete('acme');
    expect((await s3(credsOf(acme), 'GET', `/${BUCKET}/acme/state.json`)).code).toBe('InvalidAccessKeyId');
    expect(results(await adapter.ensure(acme))).toEqual({
      'policy tenant-acme': 'in-place',
      'user acme': 'created',
      'policy mapping tenant-acme -> user acme': 'created',
    });
    // The objects survived the user's absence.
    expect((await s3(credsOf(acme), 'GET', `/${BUCKET}/acme/state.json`)).text).toBe('{"v":1}');
  });

  it("puts back the tenant's secret when MinIO holds another", async () => {
    sim.state.users.get('acme')!.secretKey = 'someone-changed-this';
    expect((await s3(credsOf(acme), 'GET', `/${BUCKET}/acme/state.json`)).code).toBe('SignatureDoesNotMatch');
    expect((await adapter.observe(acme)).user.secretCurrent).toBe(false);
    expect(results(await adapter.ensure(acme))['user acme']).toBe('corrected');
    expect((await s3(credsOf(acme), 'GET', `/${BUCKET}/acme/state.json`)).status).toBe(200);
    expect(sim.state.users.get('acme')?.policies).toEqual(['tenant-acme']);
  });

  it('re-enables a disabled user', async () => {
    sim.state.users.get('acme')!.status = 'disabled';
    expect(results(await adapter.ensure(acme))['user acme']).toBe('corrected');
    expect(sim.state.users.get('acme')?.status).toBe('enabled');
  });

  it("drops a policy mapped beside the tenant's", async () => {
    sim.state.users.get('acme')!.policies = ['tenant-acme', 'readwrite'];
    expect(results(await adapter.ensure(acme))['policy mapping tenant-acme -> user acme']).toBe('corrected');
    expect(sim.state.users.get('acme')?.policies).toEqual(['tenant-acme']);
    expect((await s3(credsOf(acme), 'GET', `/${BUCKET}/beta/own`)).code).toBe('AccessDenied');
  });

  it('restores a deleted policy, whose mapping MinIO dropped with it', async () => {
    sim.state.policies.delete('tenant-acme');
    sim.state.users.get('acme')!.policies = [];
    expect(results(await adapter.ensure(acme))).toEqual({
      'policy tenant-acme': 'created',
      'user acme': 'in-place',
      'policy mapping tenant-acme -> user acme': 'created',
    });
  });
});

describe('remove', () => {
  const gone = spec('gone');

  it('removes the user and the policy, keeps the objects, and is idempotent', async () => {
    await adapter.ensure(gone);
    expect((await s3(credsOf(gone), 'PUT', `/${BUCKET}/gone/keep.bin`, { body: 'kept' })).status).toBe(200);
    await adapter.remove(gone);
    expect(sim.state.users.has('gone')).toBe(false);
    expect(sim.state.policies.has('tenant-gone')).toBe(false);
    expect(sim.state.buckets.get(BUCKET)?.get('gone/keep.bin')?.body.toString()).toBe('kept');
    expect((await s3(credsOf(gone), 'GET', `/${BUCKET}/gone/keep.bin`)).code).toBe('InvalidAccessKeyId');
    await expect(adapter.remove(gone)).resolves.toBeUndefined();
  });

  it('finds the objects again when the tenant is restored with its secret', async () => {
    await adapter.ensure(gone);
    expect((await s3(credsOf(gone), 'GET', `/${BUCKET}/gone/keep.bin`)).text).toBe('kept');
  });
});

describe('failures', () => {
  it('is refused with wrong root credentials: a non-retryable BackendError with the 403', async () => {
    const wrong = createMinioStateAdapter({ endpoint: server.url, accessKey: ROOT.accessKey, secretKey: 'not-the-secret', bucket: BUCKET });
    const err = await wrong.ensure(spec('acme')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(err).toMatchObject({ product: 'minio', retryable: false, status: 403 });
    expect((err as BackendError).detail).toContain('SignatureDoesNotMatch');
    expect((err as BackendError).detail).not.toContain('not-the-secret');
  });

  it('throws a retryable BackendError on an injected 500, and the next ensure resumes', async () => {
    const t = spec('flaky');
    await fetch(`${server.url}/__lab/faults`, { method: 'POST', body: JSON.stringify({ fail_next: 1, status: 500, match: 'add-user' }) });
    const err = await adapter.ensure(t).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(err).toMatchObject({ retryable: true, status: 500 });
    expect(sim.state.policies.has('tenant-flaky')).toBe(true);
    expect(sim.state.users.has('flaky')).toBe(false);
    expect(results(await adapter.ensure(t))).toEqual({
      'policy tenant-flaky': 'in-place',
      'user flaky': 'created',
      'policy mapping tenant-flaky -> user flaky': 'created',
    });
  });

  it('times out on a slow MinIO as a retryable BackendError', async () => {
    const impatient = createMinioStateAdapter({ endpoint: server.url, ...ROOT, bucket: BUCKET, timeoutMs: 100 });
    await fetch(`${server.url}/__lab/faults`, { method: 'POST', body: JSON.stringify({ latency_ms: 300 }) });
    try {
      const err = await impatient.observe(spec('acme')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BackendError);
      expect(err).toMatchObject({ retryable: true });
    } finally {
      await fetch(`${server.url}/__lab/faults`, { method: 'DELETE' });
    }
  });

  it.each([
    ['a tenant name that is not one', { ...spec('acme'), tenant: 'Acme!' }],
    ['an access key other than the name', { ...spec('acme'), accessKey: 'root' }],
    ['a prefix of another tenant', { ...spec('acme'), prefix: 'beta/' }],
    ['a too-short secret', spec('acme', 'short')],
  ])('refuses %s before calling MinIO', async (_what, bad) => {
    const before = sim.state.calls.length;
    const err = await adapter.ensure(bad).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'BackendError', retryable: false });
    expect(sim.state.calls.length).toBe(before);
  });
});
