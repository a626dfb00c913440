import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeaAdapter, type DeviceAddressAdapter } from '../../backends/kea/kea.js';
import { LAB_TRUST_CLASSES } from '../../apps/lab/backends.js';
import { serveApp } from '../../apps/lab/simulators/serve.js';
import { activityResults, retriedActivities } from '../support/history.js';
import { startTestSite, type TestSite } from '../support/site.js';

/**
 * Group commit of the backends whose write is one whole object (issue 32 item 2): Kea's whole
 * configuration (config-get, config-set, config-write) and a UniFi WLAN's whole key list (one PUT).
 * Changes staged while one write runs are carried by the next: several reservations or keys at
 * once cost fewer writes than objects. Each caller's step still ends only when the backend's answer
 * holds its own change, at its first attempt (a write that dropped a staged change would pass the
 * other bounds: the change fails its read-back, its activity retries, the next write carries it),
 * its outcome says how many changes the write carried, and a change the backend refuses fails alone.
 *
 * Kea is the lab's real one, behind a front that counts config-set commands and makes each take
 * KEA_WRITE_MS; the UniFi simulator answers every request UNIFI_MS late.
 */
const KEA_WRITE_MS = 800;
const UNIFI_MS = 250;
const OBJECTS = 8;

const CLASSES = {
  ...LAB_TRUST_CLASSES,
  // A range outside the device network Kea serves (10.200.0.0/24): Kea refuses a reservation in it.
  outside: { range: '10.201.0.10-10.201.0.20' },
  // A Wi-Fi class whose network the controller is made to refuse (a lab fault: refusedNetworks).
  refused: { ssid: 'lab-devices', vlan: 'tenant-dev' },
};

let site: TestSite;
let kea: DeviceAddressAdapter;
let front: { url: string; target: string; configSets: number; close: () => Promise<void> };

/** A pass-through front of Kea's control socket that counts config-set commands and slows them. */
async function startKeaFront(): Promise<typeof front> {
  const app = new Hono();
  const f = { url: '', target: '', configSets: 0, close: async () => {} };
  app.post('*', async (c) => {
    const body = await c.req.text();
    const command = (JSON.parse(body) as { command?: string }).command;
    if (command === 'config-set') {
      f.configSets++;
      await new Promise((r) => setTimeout(r, KEA_WRITE_MS));
    }
    const res = await fetch(f.target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return new Response(await res.arrayBuffer(), { status: res.status, headers: { 'content-type': 'application/json' } });
  });
  const server = await serveApp(app);
  return Object.assign(f, { url: `${server.url}/`, close: () => server.close() });
}

const call = (method: string, path: string, body?: unknown) => site.call(method, path, { body });

beforeAll(async () => {
  front = await startKeaFront();
  site = await startTestSite({ env: { SITE_TRUST_CLASSES: JSON.stringify(CLASSES), SITE_DEVICE_SHARE: '12', SITE_DHCP_URL: front.url } });
  front.target = site.backends.kea!.controlUrl;
  kea = createKeaAdapter({ controlUrl: site.backends.kea!.controlUrl, subnetId: 1 });
  for (const name of ['gcdev', 'gcwifi']) {
    const r = await call('POST', '/v1/tenants', { name });
    expect(r.status, r.text).toBe(201);
  }
}, 180_000);
afterAll(async () => {
  await site?.stop();
  await front?.close();
});

/** For each completed activity of a type since `since` (one per object): how many changes the write that carried it carried. */
async function batches(since: Date, activity: string): Promise<number[]> {
  const results = (await activityResults(site, since, activity)) as Array<Array<{ object: string; batch?: { objects?: number } }>>;
  return results.map((outcomes) => Math.max(0, ...outcomes.map((o) => o.batch?.objects ?? 0)));
}

describe('device addresses reserved together', () => {
  it(`${OBJECTS} reservations at once: fewer Kea writes than reservations, each held by Kea; one Kea refuses fails alone`, async () => {
    const devices = Array.from({ length: OBJECTS }, (_, i) => ({ name: `d${i}`, mac: `ac:00:00:00:00:${String(i + 10)}` }));
    for (const d of devices) expect((await call('POST', '/v1/tenants/gcdev/devices', { name: d.name, trust_class: 'sensor', mac: d.mac })).status).toBe(201);
    expect((await call('POST', '/v1/tenants/gcdev/devices', { name: 'far', trust_class: 'outside', mac: 'ac:00:00:00:00:99' })).status).toBe(201);

    const before = front.configSets;
    const since = new Date();
    const started = Date.now();
    const [refused, ...answers] = await Promise.all(
      ['far', ...devices.map((d) => d.name)].map((d) => call('POST', `/v1/tenants/gcdev/devices/${d}/address`, {})),
    );
    const seconds = (Date.now() - started) / 1000;
    const writes = front.configSets - before;
    console.log(`kea group commit: ${OBJECTS} reservations and one refused, ${writes} config-set, ${seconds.toFixed(1)} s`);

    for (const a of answers) expect(a!.status, a!.text).toBe(201);
    // The refused one: Kea's refusal is its own step failure, not the others'.
    expect(refused!.status, refused!.text).not.toBe(201);
    expect(refused!.status).toBeGreaterThanOrEqual(400);
    // Serialized, each reservation is a config-set of its own, the refused one's too: OBJECTS + 1.
    expect(writes).toBeLessThan(OBJECTS);
    const held = await kea.list();
    for (const [i, d] of devices.entries()) expect(held.find((r) => r.mac === d.mac)?.address, d.name).toBe(answers[i]!.body.address);
    expect(held.find((r) => r.mac === 'ac:00:00:00:00:99')).toBeUndefined();

    // Each reservation's own step, in its own run's history; its outcome says how many changes its write carried.
    const carried = await batches(since, 'device-address.apply');
    console.log(`kea group commit: writes carrying ${JSON.stringify(carried)} changes`);
    expect(carried).toHaveLength(OBJECTS);
    expect(Math.max(...carried)).toBeGreaterThan(1);
    // Each reservation carried by the first write after it was staged: no attempt failed at Kea. (The
    // same activity publishes the device's name: eight PATCHes of one zone at once meet PowerDNS's
    // SQLite lock now and then, a 500 the step retries; shown, not a group commit's failure.)
    const retried = await retriedActivities(site, since, 'device-address.apply');
    if (retried.length) console.log(`kea group commit: retried ${JSON.stringify(retried)}`);
    expect(
      retried.filter((r) => !/^backend step "dns" failed: powerdns: PATCH \S+ -> 500 /.test(r.lastFailure ?? '')),
      'reservations a write carried only after a failed attempt',
    ).toEqual([]);
  });
});

describe('Wi-Fi keys issued together', () => {
  it(`${OBJECTS} keys at once on one WLAN: fewer PUTs than keys, each standing on the controller; one the controller refuses fails alone`, async () => {
    const unifi = site.backends.unifi!;
    const defaultSite = unifi.state.sites.get('default')!;
    defaultSite.refusedNetworks = new Set([unifi.network('tenant-dev')!._id]);
    unifi.faults.add({ latencyMs: UNIFI_MS });
    try {
      const before = unifi.state.writes;
      const puts = () => unifi.faults.seen('/rest/wlanconf/');
      const putsBefore = puts();
      const since = new Date();
      const started = Date.now();
      const names = Array.from({ length: OBJECTS }, (_, i) => `k${i}`);
      const [refused, ...answers] = await Promise.all([
        call('POST', '/v1/tenants/gcwifi/wifi-keys', { name: 'kbad', trust_class: 'refused' }),
        ...names.map((name) => call('POST', '/v1/tenants/gcwifi/wifi-keys', { name, trust_class: 'sensor' })),
      ]);
      const seconds = (Date.now() - started) / 1000;
      const writes = unifi.state.writes - before;
      console.log(`unifi group commit: ${OBJECTS} keys and one refused, ${writes} accepted PUTs (${puts() - putsBefore} PUTs in all), ${seconds.toFixed(1)} s`);

      for (const a of answers) expect(a!.status, a!.text).toBe(201);
      expect(refused!.status, refused!.text).not.toBe(201);
      expect(refused!.status).toBeGreaterThanOrEqual(400);
      // Serialized, each key is a PUT of its own: OBJECTS accepted. (The refused PUTs, which change
      // nothing, are more when a refused write is split to find its offender: logged, not bounded.)
      expect(writes).toBeLessThan(OBJECTS);
      const entries = unifi.wlan('lab-devices')!.private_preshared_keys;
      const devicesNet = unifi.network('tenant-devices')!._id;
      for (const a of answers) expect(entries.find((e) => e.password === a!.body.psk)?.networkconf_id).toBe(devicesNet);
      expect(entries.some((e) => e.networkconf_id === unifi.network('tenant-dev')!._id)).toBe(false);

      const carried = await batches(since, 'wifi.ensure-key');
      console.log(`unifi group commit: writes carrying ${JSON.stringify(carried)} changes`);
      expect(carried).toHaveLength(OBJECTS);
      expect(Math.max(...carried)).toBeGreaterThan(1);
      expect(await retriedActivities(site, since, 'wifi.ensure-key'), 'keys a write carried only after a failed attempt').toEqual([]);
    } finally {
      unifi.faults.clear();
      defaultSite.refusedNetworks = undefined;
    }
  });
});
