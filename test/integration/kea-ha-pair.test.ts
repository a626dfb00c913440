import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BackendError } from '../../core/backend-outcome.js';
import { createKeaAdapter, type DeviceAddressAdapter } from '../../backends/kea/kea.js';
import { onEveryServer } from '../../backends/kea/kea-servers.js';
import { startLabBackends, type LabBackends } from '../../apps/lab/backends.js';
import { startKeaHaPair, type KeaHaPair } from '../support/kea-ha-pair.js';
import { runCheckBackends } from '../support/check-backends.js';
import { running, waitFor } from '../support/wait-for.js';

/**
 * A Kea High Availability pair (two real Kea 2.2 servers, the HA hook loaded): HA shares leases,
 * not the configuration the reservations live in, so the service writes each server
 * (SITE_DHCP_PARTNER_URLS), and `--check-backends` refuses a pair the site lists only half of.
 */
const SUBNET = { id: 10, subnet: '10.200.0.0/24' };
const AUTH = { authUser: 'svc', authPassword: 'kea-ha-password-MARK' };
let pair: KeaHaPair;
let dhcp: DeviceAddressAdapter;

const kea = (url: string) => createKeaAdapter({ controlUrl: url, subnetId: SUBNET.id, ...AUTH });
const holds = async (url: string, mac: string, address: string) => (await kea(url).list()).some((r) => r.mac === mac && r.address === address);

beforeAll(async () => {
  pair = await startKeaHaPair(SUBNET, AUTH);
  dhcp = onEveryServer([pair.primary.controlUrl, pair.standby.controlUrl].map(kea));
}, 60_000);
afterAll(async () => {
  await pair?.stop();
});

describe('reservations on every server of the pair', () => {
  it('a reservation is made on both servers; a repeat finds it in place on both', async () => {
    expect((await dhcp.ensure({ mac: '02:00:00:00:48:01', address: '10.200.0.41', hostname: 'a' }))[0]!.result).toBe('created');
    expect(await holds(pair.primary.controlUrl, '02:00:00:00:48:01', '10.200.0.41')).toBe(true);
    expect(await holds(pair.standby.controlUrl, '02:00:00:00:48:01', '10.200.0.41')).toBe(true);
    expect((await dhcp.ensure({ mac: '02:00:00:00:48:01', address: '10.200.0.41', hostname: 'a' }))[0]!.result).toBe('in-place');
  });

  it('one missing on the standby only: the plan says so and the ensure makes it there', async () => {
    await kea(pair.standby.controlUrl).remove({ address: '10.200.0.41' });
    expect((await dhcp.plan([{ mac: '02:00:00:00:48:01', address: '10.200.0.41', hostname: 'a' }]))[0]!.result).toBe('created');
    expect((await dhcp.ensure({ mac: '02:00:00:00:48:01', address: '10.200.0.41', hostname: 'a' }))[0]!.result).toBe('created');
    expect(await holds(pair.standby.controlUrl, '02:00:00:00:48:01', '10.200.0.41')).toBe(true);
  });

  it('the standby down: a retryable failure naming it by its setting (no host); once back, the repeat completes both', async () => {
    const pid = Number(await readFile(join(pair.standby.dir, 'kea-dhcp4.kea-dhcp4.pid'), 'utf8'));
    process.kill(pid, 'SIGTERM');
    // Gone, not given a fixed moment: a loaded machine can take longer to end it.
    await waitFor(() => !running(pid));
    const err = (await dhcp.ensure({ mac: '02:00:00:00:48:02', address: '10.200.0.42' }).catch((e: unknown) => e)) as BackendError;
    expect(err).toBeInstanceOf(BackendError);
    expect(err.retryable).toBe(true);
    expect(err.detail).toMatch(/^on partner 1 of SITE_DHCP_PARTNER_URLS: /);
    expect(err.detail).not.toContain('127.0.0.1');
    expect(await holds(pair.primary.controlUrl, '02:00:00:00:48:02', '10.200.0.42')).toBe(true);
    await pair.standby.restart();
    expect((await dhcp.ensure({ mac: '02:00:00:00:48:02', address: '10.200.0.42' }))[0]!.result).toBe('created');
    expect(await holds(pair.standby.controlUrl, '02:00:00:00:48:02', '10.200.0.42')).toBe(true);
    // The standby kept what it had from before its restart (config-write after each change).
    expect(await holds(pair.standby.controlUrl, '02:00:00:00:48:01', '10.200.0.41')).toBe(true);
  });

  it('a removal leaves both servers', async () => {
    await dhcp.remove({ address: '10.200.0.42' });
    expect(await holds(pair.primary.controlUrl, '02:00:00:00:48:02', '10.200.0.42')).toBe(false);
    expect(await holds(pair.standby.controlUrl, '02:00:00:00:48:02', '10.200.0.42')).toBe(false);
  });
});

describe('worker --check-backends at an HA pair', () => {
  let lab: LabBackends;
  beforeAll(async () => {
    lab = await startLabBackends({ minimal: true });
  });
  afterAll(async () => {
    await lab?.stop();
  });
  const env = () => ({
    ...lab.env,
    SITE_DHCP_URL: pair.primary.controlUrl,
    SITE_DHCP_SUBNET_ID: String(SUBNET.id),
    SITE_DHCP_USER: AUTH.authUser,
    SITE_DHCP_PASSWORD: AUTH.authPassword,
  });

  it('only one server of the pair listed: FAIL naming the pair and SITE_DHCP_PARTNER_URLS', async () => {
    const r = await runCheckBackends(env());
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /FAIL\s+dhcp\s+\S+\s+kea-dhcp4 runs the High Availability hook with 2 servers \(kea-a \(primary\), kea-b \(standby\)\) and the site lists 1: HA shares leases between them, not the configuration that holds the reservations.*SITE_DHCP_PARTNER_URLS/,
    );
    expect(r.stdout + r.stderr).not.toContain('MARK');
  });

  it('both listed: one line per server, each saying how writes are compared', async () => {
    const r = await runCheckBackends({ ...env(), SITE_DHCP_PARTNER_URLS: pair.standby.controlUrl });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => /\sdhcp\s/.test(l));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatch(
        /^ok\s+dhcp\s+\S+\s+Kea DHCPv4 .*writes compared with others' by a re-read of the configuration \(no config-hash-get before Kea 2\.4\); its configuration file is writable/,
      );
    }
  });
});
