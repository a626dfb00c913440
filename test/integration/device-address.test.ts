import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createKeaAdapter, type DeviceAddressAdapter } from '../../backends/kea/kea.js';
import { startKea, type RunningKea } from '../../apps/lab/servers/kea.js';
import { startKeaSocketFront, type KeaSocketFront } from '../support/kea-socket-front.js';
import { backendError } from '../support/backend-error.js';
import { running, waitFor } from '../support/wait-for.js';

// The device-address adapter against real Kea (kea-dhcp4 + kea-ctrl-agent 2.2): what a device
// notices is the address the DHCP server holds for its MAC, and that it survives a router restart.
const SUBNET_ID = 10;
const AUTH = { authUser: 'svc', authPassword: 'kea-test-password' };
let kea: RunningKea;
let dhcp: DeviceAddressAdapter;

interface KeaReservation {
  'hw-address': string;
  'ip-address': string;
  hostname: string;
}

async function keaCommand(command: string, args?: unknown): Promise<{ result: number; text?: string; arguments?: any }> {
  const res = await fetch(kea.controlUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${AUTH.authUser}:${AUTH.authPassword}`).toString('base64')}`,
    },
    body: JSON.stringify({ command, service: ['dhcp4'], ...(args ? { arguments: args } : {}) }),
  });
  return ((await res.json()) as any[])[0];
}

/** The subnet's reservations exactly as `config-get` shows them. */
async function reservations(): Promise<KeaReservation[]> {
  const answer = await keaCommand('config-get');
  expect(answer.result).toBe(0);
  const subnet = answer.arguments.Dhcp4.subnet4.find((s: { id: number }) => s.id === SUBNET_ID);
  return subnet.reservations;
}

beforeAll(async () => {
  kea = await startKea({
    subnets: [
      { id: SUBNET_ID, subnet: '10.200.0.0/24', pools: ['10.200.0.200-10.200.0.250'] },
      { id: 20, subnet: '10.201.0.0/24' },
    ],
    ...AUTH,
  });
  dhcp = createKeaAdapter({ controlUrl: kea.controlUrl, subnetId: SUBNET_ID, ...AUTH });
});
afterAll(async () => {
  await kea?.stop();
});

describe('making a reservation', () => {
  it('reserves the address for the MAC, visible in config-get', async () => {
    const outcomes = await dhcp.ensure({ mac: 'AA-BB-CC-00-00-01', address: '10.200.0.64', hostname: 'sensor1' });
    expect(outcomes).toEqual([{ object: `dhcp reservation 10.200.0.64 in subnet ${SUBNET_ID}`, result: 'created' }]);
    expect(await reservations()).toContainEqual(
      expect.objectContaining({ 'hw-address': 'aa:bb:cc:00:00:01', 'ip-address': '10.200.0.64', hostname: 'sensor1' }),
    );
    expect(await dhcp.observe('aabbcc000001')).toEqual({ mac: 'aa:bb:cc:00:00:01', address: '10.200.0.64', hostname: 'sensor1' });
  });

  it('converges on a repeated call', async () => {
    const outcomes = await dhcp.ensure({ mac: 'aa:bb:cc:00:00:01', address: '10.200.0.64', hostname: 'sensor1' });
    expect(outcomes[0]!.result).toBe('in-place');
    expect((await reservations()).filter((r) => r['ip-address'] === '10.200.0.64')).toHaveLength(1);
  });

  it('corrects a host name changed on the router', async () => {
    const answer = await keaCommand('config-get');
    const dhcp4 = answer.arguments.Dhcp4;
    dhcp4.subnet4.find((s: { id: number }) => s.id === SUBNET_ID).reservations[0].hostname = 'tampered';
    expect((await keaCommand('config-set', { Dhcp4: dhcp4 })).result).toBe(0);
    expect((await dhcp.ensure({ mac: 'aa:bb:cc:00:00:01', address: '10.200.0.64', hostname: 'sensor1' }))[0]!.result).toBe('corrected');
    expect((await dhcp.observe('aa:bb:cc:00:00:01'))?.hostname).toBe('sensor1');
  });

  it("leaves the subnet's other reservations alone", async () => {
    await dhcp.ensure({ mac: '02:00:00:00:00:aa', address: '10.200.0.70', hostname: 'other' });
    await dhcp.ensure({ mac: '02:00:00:00:00:bb', address: '10.200.0.71' });
    const list = await dhcp.list();
    expect(list).toContainEqual({ mac: '02:00:00:00:00:aa', address: '10.200.0.70', hostname: 'other' });
    expect(list).toContainEqual({ mac: '02:00:00:00:00:bb', address: '10.200.0.71' });
    expect(list).toContainEqual({ mac: 'aa:bb:cc:00:00:01', address: '10.200.0.64', hostname: 'sensor1' });
  });
});

describe('hardware changes', () => {
  it('moves the address to the new MAC, and the old MAC holds nothing', async () => {
    const outcomes = await dhcp.ensure({ mac: 'aa:bb:cc:00:00:02', address: '10.200.0.64', hostname: 'sensor1' });
    expect(outcomes[0]!.result).toBe('corrected');
    expect(await dhcp.observe('aa:bb:cc:00:00:01')).toBeUndefined();
    expect(await dhcp.observe('aa:bb:cc:00:00:02')).toEqual({ mac: 'aa:bb:cc:00:00:02', address: '10.200.0.64', hostname: 'sensor1' });
    const at64 = (await reservations()).filter((r) => r['ip-address'] === '10.200.0.64');
    expect(at64).toEqual([expect.objectContaining({ 'hw-address': 'aa:bb:cc:00:00:02' })]);
  });

  it('keeps one reservation per MAC: a MAC given another address drops its old one', async () => {
    expect((await dhcp.ensure({ mac: '02:00:00:00:00:bb', address: '10.200.0.72' }))[0]!.result).toBe('corrected');
    const ofMac = (await reservations()).filter((r) => r['hw-address'] === '02:00:00:00:00:bb');
    expect(ofMac.map((r) => r['ip-address'])).toEqual(['10.200.0.72']);
  });
});

describe('removing', () => {
  it('removes by MAC or by address, and is idempotent', async () => {
    await dhcp.remove({ mac: '02-00-00-00-00-BB' });
    expect(await dhcp.observe('02:00:00:00:00:bb')).toBeUndefined();
    await dhcp.remove({ address: '10.200.0.70' });
    expect((await reservations()).some((r) => r['ip-address'] === '10.200.0.70')).toBe(false);
    await dhcp.remove({ address: '10.200.0.70' });
    await dhcp.remove({ mac: '02:00:00:00:00:bb' });
    expect(await dhcp.observe('aa:bb:cc:00:00:02')).toBeDefined();
  });
});

describe('persistence', () => {
  it('writes reservations to the router config, so a Kea restart still has them', async () => {
    await dhcp.ensure({ mac: '02:00:00:00:00:cc', address: '10.200.0.80', hostname: 'kept' });
    const onDisk = JSON.parse(await readFile(kea.configFile, 'utf8'));
    const saved = onDisk.Dhcp4.subnet4.find((s: { id: number }) => s.id === SUBNET_ID).reservations;
    expect(saved).toContainEqual(expect.objectContaining({ 'hw-address': '02:00:00:00:00:cc', 'ip-address': '10.200.0.80' }));

    await kea.restart();
    expect(await dhcp.observe('02:00:00:00:00:cc')).toEqual({ mac: '02:00:00:00:00:cc', address: '10.200.0.80', hostname: 'kept' });
    expect(await dhcp.observe('aa:bb:cc:00:00:02')).toEqual({ mac: 'aa:bb:cc:00:00:02', address: '10.200.0.64', hostname: 'sensor1' });
  });

  it('persists removals too', async () => {
    await dhcp.remove({ mac: '02:00:00:00:00:cc' });
    await kea.restart();
    expect(await dhcp.observe('02:00:00:00:00:cc')).toBeUndefined();
  });
});

describe('concurrent writes from one adapter', () => {
  it('keeps every reservation when several are made at once', async () => {
    const devices = Array.from({ length: 8 }, (_, i) => ({ mac: `02:00:00:00:01:0${i}`, address: `10.200.0.${90 + i}` }));
    await Promise.all(devices.map((d) => dhcp.ensure(d)));
    const list = await dhcp.list();
    for (const d of devices) expect(list).toContainEqual(d);
    await Promise.all(devices.map((d) => dhcp.remove({ mac: d.mac })));
    expect((await dhcp.list()).filter((r) => r.mac.startsWith('02:00:00:00:01:'))).toEqual([]);
  });
});

describe('failures', () => {
  it('reports an address Kea refuses (outside the subnet) as not retryable, changing nothing', async () => {
    const before = await reservations();
    const e = await backendError(dhcp.ensure({ mac: '02:00:00:00:00:dd', address: '10.201.0.5' }));
    expect(e.retryable).toBe(false);
    expect(await reservations()).toEqual(before);
  });

  it('reports an unknown subnet id as not retryable', async () => {
    const other = createKeaAdapter({ controlUrl: kea.controlUrl, subnetId: 99, ...AUTH });
    expect((await backendError(other.list())).retryable).toBe(false);
  });

  it('reports wrong control agent credentials as a 401 refusal', async () => {
    const bad = createKeaAdapter({ controlUrl: kea.controlUrl, subnetId: SUBNET_ID, authUser: 'svc', authPassword: 'wrong' });
    const e = await backendError(bad.observe('02:00:00:00:00:01'));
    expect(e.status).toBe(401);
    expect(e.retryable).toBe(false);
  });

  it('reports kea-dhcp4 being down behind the agent as retryable, and the same call lands after', async () => {
    const pid = Number(await readFile(join(kea.dir, 'kea-dhcp4.kea-dhcp4.pid'), 'utf8'));
    process.kill(pid, 'SIGTERM');
    // Gone, not given a fixed moment: a loaded machine can take longer to end it.
    await waitFor(() => !running(pid));
    const e = await backendError(dhcp.ensure({ mac: '02:00:00:00:00:ee', address: '10.200.0.85' }));
    expect(e.retryable).toBe(true);
    await kea.restart();
    expect((await dhcp.ensure({ mac: '02:00:00:00:00:ee', address: '10.200.0.85' }))[0]!.result).toBe('created');
  });
});

describe('kea-dhcp4 serving commands itself (SITE_DHCP_CONTROL=server), as a front over Kea 2.2 plays it', () => {
  let front: KeaSocketFront;
  let direct: DeviceAddressAdapter;
  beforeAll(async () => {
    front = await startKeaSocketFront(kea.controlUrl, { user: AUTH.authUser, password: AUTH.authPassword });
    direct = createKeaAdapter({ controlUrl: front.url, subnetId: SUBNET_ID, control: 'server' });
  });
  afterAll(async () => front?.close());

  it('sends commands without the agent-only `service` and reads list answers', async () => {
    await direct.ensure({ mac: '02:00:00:00:30:01', address: '10.200.0.31', hostname: 'sock-a' });
    expect((await reservations()).some((r) => r['hw-address'] === '02:00:00:00:30:01' && r['ip-address'] === '10.200.0.31')).toBe(true);
    expect(front.received.length).toBeGreaterThan(0);
    for (const body of front.received) expect(body).not.toHaveProperty('service');
  });

  it('a config-set refused while the lease-file cleanup runs is waited out, not failed', async () => {
    front.lfcRunning(2);
    await direct.ensure({ mac: '02:00:00:00:30:02', address: '10.200.0.32', hostname: 'sock-b' });
    expect((await reservations()).some((r) => r['hw-address'] === '02:00:00:00:30:02')).toBe(true);
  });

  it('a cleanup that outlasts the wait leaves a retryable failure (the step retries)', async () => {
    front.lfcRunning(10);
    const err = await backendError(direct.ensure({ mac: '02:00:00:00:30:03', address: '10.200.0.33', hostname: 'sock-c' }));
    expect(err.retryable).toBe(true);
    expect(err.detail).toMatch(/lease file cleanup process is running/);
    front.lfcRunning(0);
  });
});
