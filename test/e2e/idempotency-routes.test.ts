import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * Every route that creates or issues something honours `Idempotency-Key` on a full lab site: its
 * first answer comes back byte for byte with `Idempotent-Replayed: true`, secrets included where
 * the route issues one (a broker account's password and a Wi-Fi key's psk are otherwise never
 * returned again), and the same key with another body is a 422.
 */
let site: TestSite;
let token: string;
let subnet: string;
let csr: string;

beforeAll(async () => {
  site = await startTestSite();
  const created = await site.call('POST', '/v1/tenants', { body: { name: 'idrt' } });
  expect(created.status, created.text).toBe(201);
  token = created.body.api_token;
  subnet = created.body.network.subnet.replace(/0\/24$/, '');
  const dir = mkdtempSync(join(tmpdir(), 'idrt-'));
  await promisify(execFile)('openssl', [
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    join(dir, 'k.pem'),
    '-subj',
    '/CN=x',
    '-out',
    join(dir, 'r.csr'),
  ]);
  csr = readFileSync(join(dir, 'r.csr'), 'utf8');
  rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => {
  await site?.stop();
});

interface Row {
  route: string;
  method: 'POST' | 'PUT';
  path: string;
  body: () => Record<string, unknown>;
  other: () => Record<string, unknown>;
  /** The secret the first answer carries, read from it. */
  secret?: (body: Record<string, unknown>) => unknown;
  token?: 'operator';
}

// In order: the device registered first is the one the address is reserved for.
const ROWS: Row[] = [
  {
    route: 'admissions',
    method: 'POST',
    path: '/v1/admissions',
    body: () => ({ name: 'idrtadm' }),
    other: () => ({ name: 'idrtad2' }),
    secret: (b) => b.enrollment_token,
    token: 'operator',
  },
  { route: 'workloads', method: 'POST', path: '/v1/tenants/idrt/workloads', body: () => ({ name: 'web' }), other: () => ({ name: 'web', cores: 3 }) },
  {
    route: 'records',
    method: 'PUT',
    path: '/v1/tenants/idrt/records/www',
    body: () => ({ address: `${subnet}50` }),
    other: () => ({ address: `${subnet}51` }),
  },
  {
    route: 'devices',
    method: 'POST',
    path: '/v1/tenants/idrt/devices',
    body: () => ({ name: 'probe1', trust_class: 'sensor', mac: 'aa:bb:cc:00:00:01' }),
    other: () => ({ name: 'probe1', trust_class: 'sensor', mac: 'aa:bb:cc:00:00:02' }),
  },
  { route: 'device addresses', method: 'POST', path: '/v1/tenants/idrt/devices/probe1/address', body: () => ({}), other: () => ({ address: '10.200.0.70' }) },
  {
    route: 'Wi-Fi keys',
    method: 'POST',
    path: '/v1/tenants/idrt/wifi-keys',
    body: () => ({ name: 'sensors', trust_class: 'sensor' }),
    other: () => ({ name: 'sensors', trust_class: 'camera' }),
    secret: (b) => b.psk,
  },
  {
    route: 'broker accounts',
    method: 'POST',
    path: '/v1/tenants/idrt/broker-accounts',
    body: () => ({ name: 'probe1', device: 'probe1', publish: ['log/probe1'], subscribe: [] }),
    other: () => ({ name: 'probe1', publish: ['x'], subscribe: [] }),
    secret: (b) => b.password,
  },
  {
    route: 'certificates',
    method: 'PUT',
    path: '/v1/tenants/idrt/certificates/web',
    body: () => ({ csr, names: ['www'] }),
    other: () => ({ csr, names: ['api'] }),
  },
];

describe.each(ROWS)('$method $path ($route)', (row) => {
  it('answers its first answer again to a repeat with the key, and 422 to another body with it', async () => {
    const key = randomUUID();
    const call = (body: Record<string, unknown>) =>
      site.call(row.method, row.path, { token: row.token ? site.operatorToken : token, body, headers: { 'idempotency-key': key } });
    const first = await call(row.body());
    expect(first.status, first.text).toBeGreaterThanOrEqual(200);
    expect(first.status, first.text).toBeLessThan(300);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    if (row.secret) expect(row.secret(first.body)).toEqual(expect.any(String));

    const again = await call(row.body());
    expect(again.status).toBe(first.status);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);

    const other = await call(row.other());
    expect(other.status, other.text).toBe(422);
  });
});
