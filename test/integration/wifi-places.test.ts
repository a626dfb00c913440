import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnifiWifiAdapter, type WifiAdapter, type WifiPlace } from '../../backends/unifi/unifi.js';
import { generatePsk } from '../../core/credentials/wifi-psk.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createUnifiSimulator, type UnifiSimulator } from '../../apps/lab/simulators/unifi/index.js';

/**
 * `placesOf`, what the isolation check's Wi-Fi probe reads: every WLAN and network a password
 * places clients on, from the controller's API. Each row lays a controller state down and holds
 * the answer to where the simulator's own association (the air) puts a client with that password.
 */
const KEY = 'wifi-places-key';
let sim: UnifiSimulator;
let server: RunningServer;
let wifi: WifiAdapter;

beforeAll(async () => {
  sim = createUnifiSimulator({
    apiKey: KEY,
    networks: [{ name: 'tenant-devices', vlan: 40 }, { name: 'tenant-dev', vlan: 41 }, { name: 'lan' }],
    wlans: [
      { ssid: 'devices', network: 'tenant-devices' },
      { ssid: 'dev', network: 'tenant-dev' },
    ],
  });
  server = await serveApp(sim.app);
  wifi = createUnifiWifiAdapter({ url: server.url, apiKey: KEY });
});
afterAll(async () => {
  await server.close();
});

/** Where the simulator places a client with this password on each WLAN, as `ssid network`. */
async function overTheAir(psk: string): Promise<string[]> {
  const placed: string[] = [];
  for (const ssid of ['devices', 'dev']) {
    const res = await fetch(`${server.url}/__lab/associate`, { method: 'POST', body: JSON.stringify({ ssid, psk, mac: '02:00:00:00:20:01' }) });
    if (res.status === 200) placed.push(`${ssid} ${((await res.json()) as { network: string }).network}`);
  }
  return placed;
}

const shown = (places: WifiPlace[]) => places.map((p) => `${p.ssid} ${p.networkName}${p.vlan !== undefined ? ` ${p.vlan}` : ''}`);

describe('where a password places clients', () => {
  const psk = generatePsk();
  const other = generatePsk();
  const net = (name: string) => sim.network(name)!._id;
  const reset = () => {
    for (const ssid of ['devices', 'dev']) {
      Object.assign(sim.wlan(ssid)!, { enabled: true, private_preshared_keys_enabled: false, private_preshared_keys: [], x_passphrase: generatePsk() });
    }
  };
  const rows: Array<{ why: string; lay: () => void; want: string[] }> = [
    { why: 'held nowhere: no place', lay: () => {}, want: [] },
    {
      why: "a private key of one WLAN: that entry's network and VLAN",
      lay: () =>
        Object.assign(sim.wlan('devices')!, {
          private_preshared_keys_enabled: true,
          private_preshared_keys: [{ password: psk, networkconf_id: net('tenant-devices') }],
        }),
      want: ['devices tenant-devices 40'],
    },
    {
      why: 'copied onto a second WLAN, mapped to another network: both places',
      lay: () => {
        Object.assign(sim.wlan('devices')!, {
          private_preshared_keys_enabled: true,
          private_preshared_keys: [{ password: psk, networkconf_id: net('tenant-devices') }],
        });
        Object.assign(sim.wlan('dev')!, {
          private_preshared_keys_enabled: true,
          private_preshared_keys: [
            { password: other, networkconf_id: net('tenant-dev') },
            { password: psk, networkconf_id: net('lan') },
          ],
        });
      },
      want: ['devices tenant-devices 40', 'dev lan'],
    },
    {
      why: "a WLAN's own passphrase, private keys off: the WLAN's network",
      lay: () => Object.assign(sim.wlan('dev')!, { x_passphrase: psk }),
      want: ['dev tenant-dev 41'],
    },
    {
      why: 'a disabled WLAN places no one',
      lay: () =>
        Object.assign(sim.wlan('devices')!, {
          enabled: false,
          private_preshared_keys_enabled: true,
          private_preshared_keys: [{ password: psk, networkconf_id: net('tenant-devices') }],
        }),
      want: [],
    },
  ];
  for (const row of rows) {
    it(row.why, async () => {
      reset();
      row.lay();
      const places = await wifi.placesOf(psk);
      expect(shown(places)).toEqual(row.want);
      // What the controller's API says is where the air puts the client.
      expect(await overTheAir(psk)).toEqual(places.map((p) => `${p.ssid} ${p.networkName}`));
    });
  }
});
