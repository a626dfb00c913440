import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendError } from '../../core/backend-outcome.js';
import { createKeaAdapter, type DeviceAddressAdapter } from '../../backends/kea/kea.js';
import { startKea, type RunningKea } from '../../apps/lab/servers/kea.js';
import { startKeaFaultProxy, type KeaFaultProxy } from '../support/kea-fault-proxy.js';
import { startKeaSocketFront } from '../support/kea-socket-front.js';

/**
 * Kea written by someone else too (issue 45): the real Kea 2.2 behind a proxy that lets another
 * writer (an operator, Stork, an HA partner) `config-set` it in the middle of the service's round.
 * Kea takes a configuration whole and unconditionally; the service compares before it sets and
 * starts over on a change, so neither side's reservations are lost.
 */
const SUBNET_ID = 10;
const AUTH = { authUser: 'svc', authPassword: 'kea-foreign-password' };
let kea: RunningKea;
let proxy: KeaFaultProxy;
let dhcp: DeviceAddressAdapter;

type Reservation = { 'hw-address': string; 'ip-address': string; hostname?: string };
type Dhcp4 = { subnet4: Array<{ id: number; reservations?: Reservation[] }> };

/** Kea's control agent, called directly as the other writer calls it. */
async function keaCommand(command: string, args?: unknown): Promise<{ result: number; text?: string; arguments?: { Dhcp4: Dhcp4 } }> {
  const res = await fetch(kea.controlUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${AUTH.authUser}:${AUTH.authPassword}`).toString('base64')}` },
    body: JSON.stringify({ command, service: ['dhcp4'], ...(args ? { arguments: args } : {}) }),
  });
  return ((await res.json()) as Array<{ result: number; arguments?: { Dhcp4: Dhcp4 } }>)[0]!;
}

const readDhcp4 = async () => (await keaCommand('config-get')).arguments!.Dhcp4;
const held = async () => (await readDhcp4()).subnet4.find((s) => s.id === SUBNET_ID)!.reservations ?? [];
const holds = async (mac: string, address: string) => (await held()).some((r) => r['hw-address'] === mac && r['ip-address'] === address);

/** The other writer's change: one reservation added to `base` (a read of its own), set whole. */
async function setWithReservation(base: Dhcp4, r: Reservation): Promise<void> {
  const subnet = base.subnet4.find((s) => s.id === SUBNET_ID)!;
  subnet.reservations = [...(subnet.reservations ?? []), r];
  const answer = await keaCommand('config-set', { Dhcp4: base });
  expect(answer.result, answer.text).toBe(0);
}

beforeAll(async () => {
  kea = await startKea({ subnets: [{ id: SUBNET_ID, subnet: '10.200.0.0/24', pools: ['10.200.0.200-10.200.0.250'] }], ...AUTH });
  proxy = await startKeaFaultProxy();
  proxy.target = kea.controlUrl;
  dhcp = createKeaAdapter({ controlUrl: proxy.url, subnetId: SUBNET_ID, ...AUTH });
});
afterAll(async () => {
  await proxy?.close();
  await kea?.stop();
});

describe("another writer's config-set during the service's round (real Kea 2.2)", () => {
  it("between the service's read and its write: the compare sees it, the round starts over, and both reservations stand", async () => {
    proxy.after('config-get', async () =>
      setWithReservation(await readDhcp4(), { 'hw-address': '02:00:00:00:45:01', 'ip-address': '10.200.0.101', hostname: 'operator' }),
    );
    const [outcome] = await dhcp.ensure({ mac: '02:00:00:00:45:02', address: '10.200.0.102', hostname: 'svc' });
    expect(outcome!.result).toBe('created');
    expect(await holds('02:00:00:00:45:01', '10.200.0.101')).toBe(true);
    expect(await holds('02:00:00:00:45:02', '10.200.0.102')).toBe(true);
  });

  it('after the service wrote, from a copy older than its write (an HA partner, Stork): the service finds its change gone and lays it again on theirs', async () => {
    let stale: Dhcp4 | undefined;
    proxy.after('config-get', async () => void (stale = await readDhcp4()));
    proxy.after('config-set', async () => setWithReservation(stale!, { 'hw-address': '02:00:00:00:45:03', 'ip-address': '10.200.0.103', hostname: 'partner' }));
    const [outcome] = await dhcp.ensure({ mac: '02:00:00:00:45:04', address: '10.200.0.104', hostname: 'svc' });
    expect(outcome!.result).toBe('created');
    expect(await holds('02:00:00:00:45:03', '10.200.0.103')).toBe(true);
    expect(await holds('02:00:00:00:45:04', '10.200.0.104')).toBe(true);
    // Nothing of the earlier test was lost either.
    expect(await holds('02:00:00:00:45:01', '10.200.0.101')).toBe(true);
    expect(await holds('02:00:00:00:45:02', '10.200.0.102')).toBe(true);
  });

  it('a removal meets a foreign write the same way: the reservation is gone and theirs stays', async () => {
    proxy.after('config-get', async () =>
      setWithReservation(await readDhcp4(), { 'hw-address': '02:00:00:00:45:05', 'ip-address': '10.200.0.105', hostname: 'operator2' }),
    );
    await dhcp.remove({ address: '10.200.0.102' });
    expect(await holds('02:00:00:00:45:02', '10.200.0.102')).toBe(false);
    expect(await holds('02:00:00:00:45:05', '10.200.0.105')).toBe(true);
  });

  it('someone writing at every read: the write gives up after its rounds, retryable, and still loses nothing of theirs', async () => {
    let n = 0;
    proxy.after(
      'config-get',
      async () =>
        setWithReservation(await readDhcp4(), { 'hw-address': `02:00:00:00:46:${String(++n).padStart(2, '0')}`, 'ip-address': `10.200.0.${150 + n}` }),
      50,
    );
    try {
      const err = (await dhcp.ensure({ mac: '02:00:00:00:45:06', address: '10.200.0.106' }).catch((e: unknown) => e)) as BackendError;
      expect(err).toBeInstanceOf(BackendError);
      expect(err.retryable).toBe(true);
      expect(err.detail).toMatch(/Kea's configuration changed under each of 5 writes \(someone else writes it/);
    } finally {
      proxy.clear();
    }
    for (let i = 1; i <= n; i++) expect(await holds(`02:00:00:00:46:${String(i).padStart(2, '0')}`, `10.200.0.${150 + i}`)).toBe(true);
    expect(await holds('02:00:00:00:45:06', '10.200.0.106')).toBe(false);
  });
});

describe('where Kea has config-hash-get (2.4 and later; played by a front over Kea 2.2)', () => {
  it("the compare asks for Kea's hash instead of the whole configuration, and catches the foreign write the same way", async () => {
    // The other writer between the service's read and its compare, behind the front.
    const front = await startKeaSocketFront(proxy.url, { user: AUTH.authUser, password: AUTH.authPassword }, { hashes: true });
    try {
      const viaFront = createKeaAdapter({ controlUrl: front.url, subnetId: SUBNET_ID, control: 'server' });
      proxy.after('config-get', async () =>
        setWithReservation(await readDhcp4(), { 'hw-address': '02:00:00:00:47:01', 'ip-address': '10.200.0.171', hostname: 'stork' }),
      );
      await viaFront.ensure({ mac: '02:00:00:00:47:02', address: '10.200.0.172', hostname: 'svc' });
      expect(await holds('02:00:00:00:47:01', '10.200.0.171')).toBe(true);
      expect(await holds('02:00:00:00:47:02', '10.200.0.172')).toBe(true);
      const commands = front.received.map((b) => b.command);
      // Two rounds: the first's compare (a hash) found the change; the second's matched and set.
      expect(commands.filter((c) => c === 'config-hash-get')).toHaveLength(2);
      expect(commands.filter((c) => c === 'config-set')).toHaveLength(1);
      // Read, and the confirming read after the write: no read to compare.
      expect(commands.filter((c) => c === 'config-get')).toHaveLength(3);
    } finally {
      proxy.clear();
      await front.close();
    }
  });
});
