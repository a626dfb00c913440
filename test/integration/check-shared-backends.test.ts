import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLabBackends, type LabBackends } from '../../apps/lab/backends.js';
import { serveApp, type RunningServer } from '../../apps/lab/simulators/serve.js';
import { createProxmoxSimulator, type ProxmoxSimulator } from '../../apps/lab/simulators/proxmox/index.js';
import { createUnifiSimulator, type UnifiSimulator } from '../../apps/lab/simulators/unifi/index.js';
import { runCheckBackends } from '../support/check-backends.js';

/**
 * `worker --check-backends` proves what the service will do at a site whose backends people share
 * (issue 45): each check fails against a backend set up or left wrong, naming the setting or the
 * state and the fix, and passes once it is right.
 */
let lab: LabBackends;
beforeAll(async () => {
  lab = await startLabBackends({ minimal: true });
});
afterAll(async () => {
  await lab?.stop();
});

describe('the fabric (Proxmox VE SDN)', () => {
  let pve8: ProxmoxSimulator;
  let pve8Server: RunningServer;
  beforeAll(async () => {
    pve8 = createProxmoxSimulator({ tokenId: lab.env.SITE_PROXMOX_TOKEN_ID!, tokenSecret: lab.env.SITE_PROXMOX_TOKEN_SECRET!, release: 8 });
    pve8Server = await serveApp(pve8.app);
  });
  afterAll(async () => pve8Server?.close());
  const pveAt = (url: string) => ({ ...lab.env, SITE_PROXMOX_URL: `${url}/api2/json` });

  it('PVE 9: the controller applied, nothing staged by others, the SDN lock free and takeable (taken and released)', async () => {
    const r = await runCheckBackends(lab.env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /ok\s+sdn\s+\S+\s+Proxmox VE 9\.0\.\d+ SDN: controller evpnctl \(evpn\) applied; nothing staged by others; the global SDN lock is free and this token may take it/,
    );
    expect(lab.proxmox.state.sdn.lockToken).toBeUndefined();
  });

  it('PVE 8: passes, and says it has no SDN lock', async () => {
    const r = await runCheckBackends(pveAt(pve8Server.url));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ok\s+sdn\s+\S+\s+Proxmox VE 8\.4\.1 SDN: .*no global SDN lock \(PVE 8\)/);
    expect(r.stdout).toMatch(/ok\s+proxmox\s+\S+\s+Proxmox VE 8\.4\.1; node pve1/);
  });

  it("an admin's staged, unapplied edits: FAIL naming them and what to do, on PVE 8 as on 9", async () => {
    for (const sim of [lab.proxmox, pve8]) {
      sim.state.sdn.config.zones.set('lab', { type: 'simple' });
      sim.state.sdn.controllers.set('evpnctl', { ...sim.state.sdn.controllers.get('evpnctl')!, asn: 65001 });
    }
    try {
      for (const env of [lab.env, pveAt(pve8Server.url)]) {
        const r = await runCheckBackends(env);
        expect(r.code).toBe(1);
        expect(r.stdout).toMatch(
          /FAIL\s+sdn\s+\S+\s+SDN has pending changes the service did not make: controller evpnctl \(changed\), zone lab \(new\)\. An apply would apply them with the tenant's, so no tenant network is created until whoever staged them applies them \(Datacenter > SDN > Apply, or `pvesh set \/cluster\/sdn`\) or rolls them back/,
        );
      }
    } finally {
      for (const sim of [lab.proxmox, pve8]) {
        sim.state.sdn.config.zones.delete('lab');
        sim.state.sdn.controllers.set('evpnctl', { ...sim.state.sdn.controllersRunning.get('evpnctl')! });
      }
    }
    expect((await runCheckBackends(lab.env)).code).toBe(0);
  });

  it('the SDN lock held by someone: FAIL naming who may hold it and the fix; the check never releases it', async () => {
    lab.proxmox.state.sdn.lockToken = '019ac0de-0000-7000-8000-00000000beef';
    try {
      const r = await runCheckBackends(lab.env);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /FAIL\s+sdn\s+\S+\s+the global SDN lock is held \(.*invalid lock token provided!\): .*pvesh delete \/cluster\/sdn\/lock --force 1/,
      );
      expect(lab.proxmox.state.sdn.lockToken).toBe('019ac0de-0000-7000-8000-00000000beef');
    } finally {
      delete lab.proxmox.state.sdn.lockToken;
    }
  });

  it('a token that may read SDN but not change it: FAIL naming the privilege and the grant, on PVE 8 too (no lock to show it there)', async () => {
    pve8.state.privileges = { '/': ['Sys.Audit', 'SDN.Audit', 'VM.Audit'], '/vms': ['VM.Allocate', 'VM.Audit'] };
    try {
      const r = await runCheckBackends(pveAt(pve8Server.url));
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /FAIL\s+sdn\s+\S+\s+the API token lacks SDN\.Allocate on \/sdn, where every tenant's network is written: grant it \(`pveum acl modify \/sdn --tokens "\$SITE_PROXMOX_TOKEN_ID" --roles PVESDNAdmin`\)/,
      );
    } finally {
      delete pve8.state.privileges;
    }
    expect((await runCheckBackends(pveAt(pve8Server.url))).code).toBe(0);
  });

  it('SITE_FABRIC_CONTROLLER naming no applied EVPN controller: FAIL naming the setting and the fix', async () => {
    const r = await runCheckBackends({ ...lab.env, SITE_FABRIC_CONTROLLER: 'nosuch' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+sdn\s+\S+\s+SITE_FABRIC_CONTROLLER nosuch is not an applied EVPN controller: define it/);
  });
});

describe('the wireless controller (UniFi Network): write rights', () => {
  const KEY = 'unifi-check-key-MARK';
  let unifi: UnifiSimulator;
  let unifiServer: RunningServer;
  beforeAll(async () => {
    unifi = createUnifiSimulator({ apiKey: KEY });
    unifiServer = await serveApp(unifi.app);
  });
  afterAll(async () => unifiServer?.close());
  const wifi = () => ({
    ...lab.env,
    SITE_WIFI_URL: unifiServer.url,
    SITE_WIFI_API_KEY: KEY,
    SITE_WIFI_DEVELOPER_SSID: 'lab-dev',
    SITE_WIFI_DEVELOPER_VLAN: 'tenant-dev',
  });

  it("an API key that may write: the WLAN's own name put back, and nothing on it changed", async () => {
    const before = structuredClone(unifi.wlan('lab-dev'));
    const r = await runCheckBackends(wifi());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /ok\s+wifi\s+\S+\s+UniFi Network \(unifi-os, API key\) answers; site default has 2 WLANs; WLAN lab-dev writable \(its name put back\)/,
    );
    expect(unifi.wlan('lab-dev')).toEqual(before);
  });

  it('an API key that can read but not write: FAIL naming the refused no-op write and the fix, and no secret', async () => {
    unifi.state.keyAccess = 'read-only';
    try {
      // The controller mode itself: reads answer, writes are refused as a controller refuses a right the credential lacks.
      const base = `${unifiServer.url}/proxy/network/api/s/default/rest/wlanconf`;
      expect((await fetch(base, { headers: { 'x-api-key': KEY } })).status).toBe(200);
      const id = unifi.wlan('lab-dev')!._id;
      const put = await fetch(`${base}/${id}`, {
        method: 'PUT',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: '{"name":"lab-dev"}',
      });
      expect([put.status, ((await put.json()) as { meta: { msg: string } }).meta.msg]).toEqual([403, 'api.err.NoPermission']);

      const r = await runCheckBackends(wifi());
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /FAIL\s+wifi\s+\S+\s+PUT rest\/wlanconf\/\w+ \(WLAN lab-dev's own name put back, a no-op\) -> 403 api\.err\.NoPermission: the API key may read but not write .*SITE_WIFI_USERNAME and SITE_WIFI_PASSWORD, SITE_WIFI_API_KEY unset.*every Wi-Fi key would fail at its first write/,
      );
      expect(r.stdout + r.stderr).not.toContain('MARK');
    } finally {
      unifi.state.keyAccess = 'full';
    }
    expect((await runCheckBackends(wifi())).code).toBe(0);
  });
});
