/**
 * The authorization matrix: every operation of the committed `openapi.yaml` (read from the file, so
 * a new route cannot escape the table) × every kind of caller gives exactly the spec's answer
 * (spec: Endpoints' Callers columns, Authentication; docs/decisions.md "Recognised tokens on routes
 * they may not use"). Objects every cell needs are made first; the allowed cells run with bodies that
 * pass validation, so authorization and not validation decides.
 *
 * Order: every non-DELETE cell first (the enrollment token's one allowed cell last, which also proves
 * that presenting it anywhere else did not spend it), then the DELETE routes in dependency order; for
 * each, the refused cells run first and the first allowed cell must answer 204, proving the refused
 * ones left the object in place.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestSite, type TestSite } from '../support/site.js';

const run = promisify(execFile);

type Caller = 'none' | 'bogus' | 'operator' | 'own' | 'other' | 'enrollment' | 'egress' | 'codec';
const CALLERS: Caller[] = ['none', 'bogus', 'operator', 'own', 'other', 'enrollment', 'egress', 'codec'];
/** The spec's caller letters for each caller column; C, the decode-only codec token, is not the spec's (issue 25). */
const LETTER: Partial<Record<Caller, string>> = { operator: 'O', own: 'T', enrollment: 'E', egress: 'A', codec: 'C' };

const OWN = 'own';
const OTHER = 'other';
/** Admitted, not yet a tenant: its enrollment token is the `enrollment` caller. */
const NEWBIE = 'newbie';
/** Admitted only to be withdrawn by DELETE /v1/admissions/{t}. */
const WITHDRAWN = 'gone';

let site: TestSite;
let dir: string;
const tokens: Partial<Record<Caller, string | null>> = {};
let ownTenant: any;
let csr: string;

/** An address of `own`'s subnet. */
const subnetHost = (host: number) => `${(ownTenant.network.subnet as string).split('.').slice(0, 3).join('.')}.${host}`;

/** What one route needs: the spec's callers, its concrete path, a valid body and what an allowed caller gets. */
interface RouteSpec {
  /** The spec's Callers column; '-' for the service routes that take no token. */
  callers: string;
  path: string;
  body?: (caller: Caller) => unknown;
  /** Statuses an allowed caller may get (the object exists for it). */
  ok: number[];
  /** Allowed callers in the order they run (default operator first). */
  order?: Caller[];
  /** Puts the object back before an allowed cell (after an earlier allowed DELETE removed it). */
  before?: (caller: Caller) => Promise<void>;
  /** Why an allowed caller gets `ok`. */
  why: string;
}

const ops = (method: string, path: string, body?: unknown, token?: string | null) => site.call(method, path, { body, token });
/** Every repeat after a 502/503, with the answer that caused it: counted and reported, never hidden. */
const retries: string[] = [];
const repeatable = (r: { status: number }, expected: number[]) => (r.status === 502 || r.status === 503) && !expected.includes(r.status);

/**
 * A setup call as the operator; a 502/503 of a loaded lab is repeated (the spec's remedy: a
 * repeat resumes, rule 3), at most twice, each repeat recorded and reported.
 */
async function made(status: number[], method: string, path: string, body: unknown, what: string) {
  let r = await ops(method, path, body);
  for (let i = 0; i < 2 && repeatable(r, status); i++) {
    retries.push(`${method} ${path} → ${r.status}`);
    r = await ops(method, path, body);
  }
  expect(status, `${what}: ${r.status} ${r.text}`).toContain(r.status);
  return r;
}

const WORKLOAD = { name: 'web' };
const DEVICE = { name: 'dev1', trust_class: 'sensor', mac: '02:00:00:00:aa:01' };
const WIFI_KEY = { name: 'k1', trust_class: 'sensor' };
const ACCOUNT = { name: 'acct', publish: ['data/#'], subscribe: ['cmd/#'] };
const record = () => ({ address: subnetHost(50) });

const makeWorkload = async () => void (await made([201], 'POST', `/v1/tenants/${OWN}/workloads`, WORKLOAD, 'workload'));
const makeRecord = async () => void (await made([200], 'PUT', `/v1/tenants/${OWN}/records/www`, record(), 'record'));
const makeDevice = async () => void (await made([201], 'POST', `/v1/tenants/${OWN}/devices`, DEVICE, 'device'));
const makeAddress = async () => void (await made([201], 'POST', `/v1/tenants/${OWN}/devices/dev1/address`, {}, 'address'));
/** Secrets of `own`'s objects, kept for the attacks below (the first issue answers them). */
const ownSecrets: { psk?: string; password?: string } = {};
const makeWifiKey = async () => {
  const r = await made([201], 'POST', `/v1/tenants/${OWN}/wifi-keys`, WIFI_KEY, 'wifi key');
  ownSecrets.psk ??= r.body.psk;
};
const makeAccount = async () => {
  const r = await made([201], 'POST', `/v1/tenants/${OWN}/broker-accounts`, ACCOUNT, 'broker account');
  ownSecrets.password ??= r.body.password;
};
const makeCertificate = async () => void (await made([200, 201], 'PUT', `/v1/tenants/${OWN}/certificates/srv`, { csr }, 'certificate'));
const onlyAfterFirst = (make: () => Promise<void>) => async (caller: Caller) => (caller === 'operator' ? undefined : make());

/** One entry per operation of openapi.yaml, keyed `METHOD path` (spec: Endpoints). */
const ROUTES: Record<string, RouteSpec> = {
  'GET /healthz': { callers: '-', path: '/healthz', ok: [200], why: 'service route, no token' },
  'GET /readyz': { callers: '-', path: '/readyz', ok: [200], why: 'service route, no token' },
  'GET /version': { callers: '-', path: '/version', ok: [200], why: 'service route, no token' },

  'POST /v1/admissions': { callers: 'O', path: '/v1/admissions', body: () => ({ name: 'admx' }), ok: [201], why: 'admits a fresh name' },
  'DELETE /v1/admissions/{t}': { callers: 'O', path: `/v1/admissions/${WITHDRAWN}`, ok: [204], why: 'withdraws an unused admission' },

  'POST /v1/tenants': {
    callers: 'OET',
    path: '/v1/tenants',
    body: (caller) => ({ name: caller === 'enrollment' ? NEWBIE : OWN }),
    ok: [],
    why: 'operator/own: 409 (own is ready, no secrets sent); enrollment: 201 creates its own name',
  },
  'GET /v1/tenants': { callers: 'O', path: '/v1/tenants', ok: [200], why: 'lists tenants' },
  'GET /v1/tenants/{t}': { callers: 'OT', path: `/v1/tenants/${OWN}`, ok: [200], why: 'reads the tenant' },
  'DELETE /v1/tenants/{t}': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}`,
    ok: [204],
    // The tenant deletes itself first: once the operator has deleted it, its token names no tenant.
    order: ['own', 'operator'],
    before: async (caller) => {
      if (caller === 'operator') await made([201], 'POST', '/v1/tenants', { name: OWN }, 'recreate own');
      site.backends.proxmox.removeTenantNetwork(OWN);
    },
    why: 'deleted (workloads gone, fabric zone removed)',
  },
  'POST /v1/tenants/{t}/reconcile': { callers: 'O', path: `/v1/tenants/${OWN}/reconcile`, ok: [200], why: 'reconciled' },
  'GET /v1/tenants/{t}/runs': { callers: 'OT', path: `/v1/tenants/${OWN}/runs`, ok: [200], why: "lists the tenant's runs" },
  'GET /v1/runs': { callers: 'O', path: '/v1/runs', ok: [200], why: 'lists every run' },
  'GET /v1/events': { callers: 'O', path: '/v1/events', ok: [200], why: 'the events feed' },
  'GET /v1/sweeps': { callers: 'O', path: '/v1/sweeps', ok: [200], why: "the sweeps' results" },
  'POST /v1/isolation-checks': { callers: 'O', path: '/v1/isolation-checks', ok: [200], why: 'runs the isolation check (its first makes the canaries)' },
  'GET /v1/isolation-checks/latest': { callers: 'O', path: '/v1/isolation-checks/latest', ok: [200], why: 'the last isolation check' },

  'POST /v1/tenants/{t}/workloads': { callers: 'OT', path: `/v1/tenants/${OWN}/workloads`, body: () => WORKLOAD, ok: [201], why: 're-applies the workload' },
  'GET /v1/tenants/{t}/workloads': { callers: 'OT', path: `/v1/tenants/${OWN}/workloads`, ok: [200], why: 'lists' },
  'GET /v1/tenants/{t}/workloads/{workload}': { callers: 'OT', path: `/v1/tenants/${OWN}/workloads/web`, ok: [200], why: 'reads' },
  'DELETE /v1/tenants/{t}/workloads/{workload}': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/workloads/web`,
    ok: [204],
    before: onlyAfterFirst(makeWorkload),
    why: 'deleted',
  },

  'GET /v1/tenants/{t}/records': { callers: 'OT', path: `/v1/tenants/${OWN}/records`, ok: [200], why: 'lists' },
  'PUT /v1/tenants/{t}/records/{record}': { callers: 'OT', path: `/v1/tenants/${OWN}/records/www`, body: record, ok: [200], why: 'same record again' },
  'DELETE /v1/tenants/{t}/records/{record}': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/records/www`,
    ok: [204],
    before: onlyAfterFirst(makeRecord),
    why: 'deleted',
  },

  'POST /v1/tenants/{t}/broker-accounts': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/broker-accounts`,
    body: () => ACCOUNT,
    ok: [201],
    why: 'issued again (keeps its password)',
  },
  'GET /v1/tenants/{t}/broker-accounts': { callers: 'OT', path: `/v1/tenants/${OWN}/broker-accounts`, ok: [200], why: 'lists' },
  'GET /v1/tenants/{t}/broker-accounts/{account}': { callers: 'OT', path: `/v1/tenants/${OWN}/broker-accounts/acct`, ok: [200], why: 'reads' },
  'DELETE /v1/tenants/{t}/broker-accounts/{account}': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/broker-accounts/acct`,
    ok: [204],
    before: onlyAfterFirst(makeAccount),
    why: 'deleted',
  },

  'PUT /v1/tenants/{t}/certificates/{certificate}': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/certificates/srv`,
    body: () => ({ csr }),
    ok: [200],
    why: 'same key and names: the same certificate',
  },
  'GET /v1/tenants/{t}/certificates': { callers: 'OT', path: `/v1/tenants/${OWN}/certificates`, ok: [200], why: 'lists' },
  'GET /v1/tenants/{t}/certificates/{certificate}': { callers: 'OT', path: `/v1/tenants/${OWN}/certificates/srv`, ok: [200], why: 'reads' },
  'DELETE /v1/tenants/{t}/certificates/{certificate}': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/certificates/srv`,
    ok: [204],
    before: onlyAfterFirst(makeCertificate),
    why: 'forgotten',
  },

  'POST /v1/tenants/{t}/devices': { callers: 'OT', path: `/v1/tenants/${OWN}/devices`, body: () => DEVICE, ok: [201], why: 'registered again (converges)' },
  'GET /v1/tenants/{t}/devices': { callers: 'OT', path: `/v1/tenants/${OWN}/devices`, ok: [200], why: 'lists' },
  'GET /v1/tenants/{t}/devices/{device}': { callers: 'OT', path: `/v1/tenants/${OWN}/devices/dev1`, ok: [200], why: 'reads' },
  'DELETE /v1/tenants/{t}/devices/{device}': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/devices/dev1`,
    ok: [204],
    before: onlyAfterFirst(makeDevice),
    why: 'deleted (its address released first)',
  },

  'POST /v1/tenants/{t}/devices/{device}/address': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/devices/dev1/address`,
    body: () => ({}),
    ok: [201],
    why: 'reserved again (converges)',
  },
  'GET /v1/tenants/{t}/devices/{device}/address': { callers: 'OT', path: `/v1/tenants/${OWN}/devices/dev1/address`, ok: [200], why: 'reads' },
  'DELETE /v1/tenants/{t}/devices/{device}/address': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/devices/dev1/address`,
    ok: [204],
    before: onlyAfterFirst(makeAddress),
    why: 'released',
  },

  'POST /v1/tenants/{t}/wifi-keys': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/wifi-keys`,
    body: () => WIFI_KEY,
    ok: [201],
    why: 'issued again (keeps the key)',
  },
  'GET /v1/tenants/{t}/wifi-keys': { callers: 'OT', path: `/v1/tenants/${OWN}/wifi-keys`, ok: [200], why: 'lists' },
  'GET /v1/tenants/{t}/wifi-keys/{key}': { callers: 'OT', path: `/v1/tenants/${OWN}/wifi-keys/k1`, ok: [200], why: 'reads' },
  'DELETE /v1/tenants/{t}/wifi-keys/{key}': {
    callers: 'OT',
    path: `/v1/tenants/${OWN}/wifi-keys/k1`,
    ok: [204],
    before: onlyAfterFirst(makeWifiKey),
    why: 'revoked',
  },

  'GET /v1/fabric/egress': { callers: 'OA', path: '/v1/fabric/egress', ok: [200], why: 'lists ready VRFs' },

  // Not in the spec: Temporal's remote codec, the operator or the codec token (docs/decisions.md "Temporal").
  // Encoding is the operator's: the codec token only decodes (issue 45 item 6), and encodes nothing
  // (the empty list the Temporal CLI sends before a query without arguments, which is this row's body).
  'POST /codec/encode': { callers: 'OC', path: '/codec/encode', body: () => ({ payloads: [] }), ok: [200], why: 'encodes (the codec token: nothing)' },
  'POST /codec/decode': { callers: 'OC', path: '/codec/decode', body: () => ({ payloads: [] }), ok: [200], why: 'decodes' },
};

/** DELETE routes run last, in this order: an object goes before what it depends on, the tenant last. */
const DELETE_ORDER = [
  'DELETE /v1/admissions/{t}',
  'DELETE /v1/tenants/{t}/records/{record}',
  'DELETE /v1/tenants/{t}/devices/{device}/address',
  'DELETE /v1/tenants/{t}/devices/{device}',
  'DELETE /v1/tenants/{t}/workloads/{workload}',
  'DELETE /v1/tenants/{t}/wifi-keys/{key}',
  'DELETE /v1/tenants/{t}/broker-accounts/{account}',
  'DELETE /v1/tenants/{t}/certificates/{certificate}',
  'DELETE /v1/tenants/{t}',
];

/** Operations of the committed contract. */
const OPENAPI_OPS: string[] = (() => {
  const doc = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => methods.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
})();

interface Expectation {
  status: number[];
  /** The exact body of a refusal. */
  text?: string;
  reason: string;
}

const UNAUTHORIZED = '{"error":"unauthorized"}';

/** The spec's answer for one cell (spec: Authentication rules 2 and 3; decisions.md for E and A elsewhere). */
function expected(key: string, spec: RouteSpec, caller: Caller): Expectation {
  if (spec.callers === '-') return { status: spec.ok, reason: spec.why };
  if (caller === 'none') return { status: [401], text: UNAUTHORIZED, reason: 'no token' };
  if (caller === 'bogus') return { status: [401], text: UNAUTHORIZED, reason: 'forged tenant token (wrong MAC)' };
  const letter = LETTER[caller]!;
  if (spec.callers.includes(letter)) {
    if (key === 'POST /v1/tenants')
      return caller === 'enrollment'
        ? { status: [201], reason: 'enrollment creates its own name (spends the token)' }
        : { status: [409], reason: 'own is ready and no secrets were sent' };
    return { status: spec.ok, reason: spec.why };
  }
  if (caller === 'other' && spec.callers.includes('T'))
    return { status: [404], text: '{"error":"tenant not found"}', reason: 'another tenant is told the tenant does not exist (rule 2)' };
  const operatorOnly = !spec.callers.includes('T') && !spec.callers.includes('A') && !spec.callers.includes('E');
  if ((caller === 'own' || caller === 'other') && operatorOnly)
    return { status: [403], text: '{"error":"operator only"}', reason: 'a tenant token on an operator-only route (rule 3)' };
  if (caller === 'own' || caller === 'other')
    return { status: [401], text: UNAUTHORIZED, reason: 'a tenant token where only operator and egress agent may go (spec lists 401 only)' };
  return { status: [401], text: UNAUTHORIZED, reason: `${caller} token is valid on its one route only (decisions.md)` };
}

interface Row {
  key: string;
  caller: Caller;
  expect: Expectation;
  spec: RouteSpec | undefined;
}

function cells(key: string): Row[] {
  const spec = ROUTES[key];
  if (!spec) return [{ key, caller: 'operator', expect: { status: [], reason: 'no row in the table' }, spec }];
  const rows = CALLERS.map((caller) => ({ key, caller, expect: expected(key, spec, caller), spec }));
  const allowed = (r: Row) => spec.callers !== '-' && spec.callers.includes(LETTER[r.caller] ?? '?');
  const order = spec.order ?? ['operator', 'own', 'enrollment', 'egress', 'codec'];
  return [...rows.filter((r) => !allowed(r)), ...rows.filter(allowed).sort((a, b) => order.indexOf(a.caller) - order.indexOf(b.caller))];
}

const deletes = OPENAPI_OPS.filter((k) => k.startsWith('DELETE '));
const others = OPENAPI_OPS.filter((k) => !k.startsWith('DELETE '));
const spendsEnrollment = (r: Row) => r.key === 'POST /v1/tenants' && r.caller === 'enrollment';
const PHASE1 = others.flatMap(cells).sort((a, b) => Number(spendsEnrollment(a)) - Number(spendsEnrollment(b)));
const PHASE2 = [...deletes].sort((a, b) => rank(a) - rank(b)).flatMap(cells);
function rank(key: string): number {
  const i = DELETE_ORDER.indexOf(key);
  return i < 0 ? DELETE_ORDER.length : i;
}

/** Each cell's answer, for the summary. */
const results: { key: string; caller: Caller; status: number; reason: string }[] = [];

async function runCell(row: Row): Promise<void> {
  expect(row.spec, `${row.key} is in openapi.yaml but has no row in the matrix`).toBeDefined();
  const spec = row.spec!;
  const allowed = spec.callers !== '-' && spec.callers.includes(LETTER[row.caller] ?? '?');
  if (allowed && spec.before) await spec.before(row.caller);
  const method = row.key.split(' ')[0]!;
  let r = await ops(method, spec.path, spec.body?.(row.caller), tokens[row.caller]);
  // An allowed call that a loaded lab answered 502/503 (a backend or Temporal timed out) was
  // authorized already; repeating it resumes the work (spec rule 3). Refused cells never repeat.
  for (let i = 0; allowed && i < 2 && repeatable(r, row.expect.status); i++) {
    retries.push(`${row.key} as ${row.caller} → ${r.status}`);
    r = await ops(method, spec.path, spec.body?.(row.caller), tokens[row.caller]);
  }
  results.push({ key: row.key, caller: row.caller, status: r.status, reason: row.expect.reason });
  expect(row.expect.status, `${row.key} as ${row.caller} (${row.expect.reason}): got ${r.status} ${r.text}`).toContain(r.status);
  if (row.expect.text !== undefined) expect(r.text).toBe(row.expect.text);
  if (r.status === 401) expect(r.headers.get('www-authenticate')).toBe('Bearer realm="svc-api"');
  else expect(r.headers.get('www-authenticate')).toBeNull();
}

/** A tenant token of the right shape whose MAC the site did not make. */
function forged(token: string): string {
  const parts = token.split('.');
  const mac = parts[3]!;
  return [...parts.slice(0, 3), mac.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))].join('.');
}

/** What `own` holds, as the operator reads it: names of every object. */
async function holdings(): Promise<Record<string, unknown>> {
  const names = async (path: string, field: string) =>
    ((await ops('GET', `/v1/tenants/${OWN}/${path}`)).body[field] as { name: string }[]).map((o) => o.name).sort();
  return {
    tenant: (await ops('GET', `/v1/tenants/${OWN}`)).body.status,
    workloads: await names('workloads', 'workloads'),
    records: await names('records', 'records'),
    devices: await names('devices', 'devices'),
    address: (await ops('GET', `/v1/tenants/${OWN}/devices/dev1/address`)).body.address,
    wifi_keys: await names('wifi-keys', 'wifi_keys'),
    broker_accounts: await names('broker-accounts', 'broker_accounts'),
    certificates: (await ops('GET', `/v1/tenants/${OWN}/certificates/srv`)).body.serial,
  };
}
let before: Record<string, unknown>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'auth-matrix-'));
  const [s] = await Promise.all([
    startTestSite(),
    run(
      'openssl',
      ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'srv.key', '-subj', '/CN=srv', '-out', 'srv.csr'],
      { cwd: dir },
    ),
  ]);
  site = s;
  csr = await readFile(join(dir, 'srv.csr'), 'utf8');
  const [own, other] = await Promise.all([
    made([201], 'POST', '/v1/tenants', { name: OWN }, 'own'),
    made([201], 'POST', '/v1/tenants', { name: OTHER }, 'other'),
  ]);
  ownTenant = own.body;
  const admitted = await made([201], 'POST', '/v1/admissions', { name: NEWBIE }, 'admission');
  await made([201], 'POST', '/v1/admissions', { name: WITHDRAWN }, 'admission to withdraw');
  Object.assign(tokens, {
    none: null,
    bogus: forged(own.body.api_token),
    operator: site.operatorToken,
    own: own.body.api_token,
    other: other.body.api_token,
    enrollment: admitted.body.enrollment_token,
    egress: site.egressToken,
    codec: site.codecToken,
  });
  await makeWorkload();
  await makeRecord();
  await makeDevice();
  await makeAddress();
  await makeWifiKey();
  await makeAccount();
  await makeCertificate();
  before = await holdings();
});
afterAll(async () => {
  await site?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the table covers the contract', () => {
  it('openapi.yaml has the operations the table expects, and every one has a row', () => {
    expect(OPENAPI_OPS.length).toBeGreaterThanOrEqual(39);
    expect(OPENAPI_OPS.filter((k) => !ROUTES[k])).toEqual([]);
    expect(Object.keys(ROUTES).filter((k) => !OPENAPI_OPS.includes(k))).toEqual([]);
    expect(deletes.filter((k) => !DELETE_ORDER.includes(k))).toEqual([]);
  });
});

describe('every route × every caller, except deletes', () => {
  it.each(PHASE1.map((r) => [r.key, r.caller, r.expect.status.join('|'), r.expect.reason, r] as const))('%s as %s → %s (%s)', async (_k, _c, _s, _r, row) => {
    await runCell(row);
  });

  it('left every object of the tenant as it was (no refused cell changed anything)', async () => {
    expect(before).toMatchObject({ tenant: 'ready', workloads: ['web'], records: ['www'], devices: ['dev1'], wifi_keys: ['k1'], broker_accounts: ['acct'] });
    expect(await holdings()).toEqual(before);
  });

  it('the enrollment token made its own tenant, and is spent now', async () => {
    expect((await ops('GET', `/v1/tenants/${NEWBIE}`)).status).toBe(200);
    const again = await ops('POST', '/v1/tenants', { name: NEWBIE }, tokens.enrollment);
    expect([again.status, again.text]).toEqual([401, UNAUTHORIZED]);
  });
});

/**
 * What an authorized caller still may not do with a valid body (issue 16, docs/reliability.md
 * "Tried by an attacker"): each refused with 400 and leaving `own` as it was.
 */
describe('attacks by callers the matrix allows on the route', () => {
  const attacks: [string, Caller, string, string, () => unknown, string][] = [
    [
      "another tenant issues a Wi-Fi key with own's psk",
      'other',
      'POST',
      `/v1/tenants/${OTHER}/wifi-keys`,
      () => ({ name: 'stolen', trust_class: 'sensor', psk: ownSecrets.psk }),
      'psk is not a password of this key; psk only restores a key of this tenant whose stored copy was lost',
    ],
    [
      'another tenant does so under another trust class',
      'other',
      'POST',
      `/v1/tenants/${OTHER}/wifi-keys`,
      () => ({ name: 'stolen', trust_class: 'camera', psk: ownSecrets.psk }),
      'psk is not a password of this key; psk only restores a key of this tenant whose stored copy was lost',
    ],
    [
      'the tenant chooses the password of its existing broker account',
      'own',
      'POST',
      `/v1/tenants/${OWN}/broker-accounts`,
      () => ({ ...ACCOUNT, password: 'chosen-by-the-tenant-01' }),
      "password: not this account's; password only restores an account whose password the service or the broker lost",
    ],
    [
      'the operator sends an index without the secrets',
      'operator',
      'POST',
      '/v1/tenants',
      () => ({ name: 'fresh', index: 40 }),
      'index: is for restore only: send it with tsig_secret, state_secret and api_token',
    ],
    [
      "the operator creates a tenant named like the site's nameserver",
      'operator',
      'POST',
      '/v1/tenants',
      () => ({ name: 'ns1' }),
      'name: "ns1" is a name the site itself uses under its domain',
    ],
    [
      "the operator admits the nameserver's name",
      'operator',
      'POST',
      '/v1/admissions',
      () => ({ name: 'ns1' }),
      'name: "ns1" is a name the site itself uses under its domain',
    ],
    [
      'the tenant sends an SSH key with U+2028 in its comment',
      'own',
      'POST',
      `/v1/tenants/${OWN}/workloads`,
      () => ({ name: 'lsep', ssh_keys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 me\u2028x'] }),
      'ssh_keys.0: contains a Unicode line or paragraph separator (U+2028, U+2029)',
    ],
  ];
  it.each(attacks)('%s (as %s): 400', async (_what, caller, method, path, body, error) => {
    expect(ownSecrets.psk && ownSecrets.password).toBeTruthy();
    const r = await ops(method, path, body(), tokens[caller]);
    expect([r.status, r.body]).toEqual([400, { error }]);
  });

  it('left every object of the tenant as it was, and made nothing', async () => {
    expect(await holdings()).toEqual(before);
    expect((await ops('GET', `/v1/tenants/${OTHER}/wifi-keys`)).body.wifi_keys).toEqual([]);
    for (const name of ['fresh', 'ns1']) expect((await ops('GET', `/v1/tenants/${name}`)).status).toBe(404);
  });
});

describe('deletes: refused callers first, then the allowed ones', () => {
  it.each(PHASE2.map((r) => [r.key, r.caller, r.expect.status.join('|'), r.expect.reason, r] as const))('%s as %s → %s (%s)', async (_k, _c, _s, _r, row) => {
    await runCell(row);
  });

  it('ran every cell; the summary', () => {
    expect(results.length).toBe(OPENAPI_OPS.length * CALLERS.length);
    const tally: Record<string, number> = {};
    for (const r of results) tally[r.status] = (tally[r.status] ?? 0) + 1;
    console.log(
      `auth matrix: ${OPENAPI_OPS.length} operations × ${CALLERS.length} callers = ${results.length} cells; statuses ${JSON.stringify(tally)}; ` +
        `${retries.length} repeat(s) after a 502/503: ${JSON.stringify(retries)}`,
    );
    // The repeats let every cell finish; an allowed call answered 502/503 still fails the matrix.
    expect(retries, 'cells answered 502/503 and were repeated').toEqual([]);
  });
});
