import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeaAdapter, type DeviceAddressAdapter } from '../../backends/kea/kea.js';
import { LAB_TRUST_CLASSES } from '../../apps/lab/backends.js';
import { startKeaFaultProxy, type KeaFaultProxy } from '../support/kea-fault-proxy.js';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * Tenants reserving lowest-free device addresses from one shared range at once (issue 42 item 4):
 * while the range has room no call answers 409, every address is handed out once, and the first
 * calls beyond its capacity answer `409 ... is full`. Kea is slowed so each pick's router read is
 * long and the picks overlap; every burst asserts its calls were all in flight together.
 */
let site: TestSite;
let kea: DeviceAddressAdapter;
let keaProxy: KeaFaultProxy;

/** 32 addresses: the two-tenant burst takes 8, the eight-tenant burst the other 24. */
const RANGE = { first: 192, size: 32 };
const CLASSES = { ...LAB_TRUST_CLASSES, pool: { range: `10.200.0.${RANGE.first}-10.200.0.${RANGE.first + RANGE.size - 1}` } };
const TWO = ['pa', 'pb'];
const EIGHT = ['ea', 'eb', 'ec', 'ed', 'ee', 'ef', 'eg', 'eh'];

let macs = 0;
const nextMac = () => `da:00:00:00:${(++macs >> 8).toString(16).padStart(2, '0')}:${(macs & 255).toString(16).padStart(2, '0')}`;

const call = (method: string, path: string, body?: unknown) => site.call(method, path, { body });

interface Timed {
  tenant: string;
  device: string;
  status: number;
  body: any;
  text: string;
  start: number;
  end: number;
}

/** Registers `perTenant` new devices in each tenant (with MACs), returns them as [tenant, device]. */
async function devices(tenants: string[], perTenant: number, tag: string): Promise<[string, string][]> {
  const made: [string, string][] = [];
  for (const t of tenants)
    for (let i = 0; i < perTenant; i++) {
      const name = `${tag}${i}`;
      const r = await call('POST', `/v1/tenants/${t}/devices`, { name, trust_class: 'pool', mac: nextMac() });
      expect(r.status, r.text).toBe(201);
      made.push([t, name]);
    }
  return made;
}

/**
 * Every reservation at once, an empty body each (the lowest free address), each call timed, with
 * Kea slowed so each pick's router read is long; asserts the calls were all in flight together.
 */
async function race(pairs: [string, string][]): Promise<Timed[]> {
  keaProxy.latency(150);
  const calls = await Promise.all(
    pairs.map(async ([tenant, device]) => {
      const start = performance.now();
      const r = await call('POST', `/v1/tenants/${tenant}/devices/${device}/address`, {});
      return { tenant, device, status: r.status, body: r.body, text: r.text, start, end: performance.now() };
    }),
  ).finally(() => keaProxy.latency(0));
  expectAllOverlapped(calls);
  return calls;
}

/** Each tenant reserves `perTenant` new devices' addresses at once, all within the free addresses: every call 201, no address twice. */
async function raceWithRoom(tenants: string[], perTenant: number, tag: string): Promise<Timed[]> {
  const pairs = await devices(tenants, perTenant, tag);
  const free = await freeCount();
  expect(free, 'the range has room for every call').toBeGreaterThanOrEqual(pairs.length);
  const calls = await race(pairs);
  const refused = calls.filter((c) => c.status !== 201).map((c) => `${c.tenant}/${c.device}: ${c.status} ${c.text}`);
  expect(refused, `calls refused with ${free} addresses free for ${pairs.length} calls`).toEqual([]);
  expect(new Set(calls.map((c) => c.body.address)).size).toBe(pairs.length);
  return calls;
}

/** A race test must show its calls raced: the last call started before the first one ended. */
function expectAllOverlapped(calls: Timed[]): void {
  const lastStart = Math.max(...calls.map((c) => c.start));
  const firstEnd = Math.min(...calls.map((c) => c.end));
  expect(lastStart, `the last of ${calls.length} calls started ${(lastStart - firstEnd).toFixed(0)} ms after the first ended`).toBeLessThan(firstEnd);
}

/** Addresses the registry holds in the range, over all tenants. */
async function held(): Promise<string[]> {
  const rows = (await site.registry.db.execute(sql`select address from device_addresses`)) as unknown as { address: string }[];
  return rows.map((r) => r.address);
}

const freeCount = async () => RANGE.size - (await held()).length;

beforeAll(async () => {
  keaProxy = await startKeaFaultProxy();
  site = await startTestSite({ env: { SITE_TRUST_CLASSES: JSON.stringify(CLASSES), SITE_DEVICE_SHARE: '16', SITE_DHCP_URL: keaProxy.url } });
  keaProxy.target = site.backends.kea!.controlUrl;
  kea = createKeaAdapter({ controlUrl: site.backends.kea!.controlUrl, subnetId: 1 });
  for (const name of [...TWO, ...EIGHT]) {
    const r = await call('POST', '/v1/tenants', { name });
    expect(r.status, r.text).toBe(201);
  }
});
afterAll(async () => {
  keaProxy?.latency(0);
  await site?.stop();
  await keaProxy?.close();
});

const FULL = { error: 'the tenant range of trust class "pool" is full' };

describe('tenants reserving lowest-free device addresses from one shared range at once', () => {
  it('two tenants, four each at once: all 201, distinct, overlapping', async () => {
    await raceWithRoom(TWO, 4, 'a');
  });

  it('eight tenants, three each at once, exactly filling the range: all 201, distinct, overlapping, on the router', async () => {
    expect(await freeCount()).toBe(EIGHT.length * 3);
    const calls = await raceWithRoom(EIGHT, 3, 'b');
    const all = await held();
    expect(all.length).toBe(RANGE.size);
    expect(new Set(all).size).toBe(RANGE.size);
    const router = await kea.list();
    for (const c of calls) expect(router).toContainEqual({ mac: c.body.mac, address: c.body.address, hostname: c.device });
  });

  it('the range full, the first call beyond it answers 409 the range is full, and so does each of eight at once', async () => {
    expect(await freeCount()).toBe(0);
    const [first] = await devices(['pa'], 1, 'c');
    const one = await call('POST', `/v1/tenants/${first![0]}/devices/${first![1]}/address`, {});
    expect({ status: one.status, body: one.body }).toEqual({ status: 409, body: FULL });
    const calls = await race(await devices(EIGHT, 1, 'd'));
    for (const c of calls) expect({ status: c.status, body: c.body }).toEqual({ status: 409, body: FULL });
    expect((await held()).length).toBe(RANGE.size);
  });
});
