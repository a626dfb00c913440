import { execFile } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynsecControl, type DynsecControl } from '../../backends/mosquitto/dynsec-control.js';
import type { IsolationCheckResult } from '../../contracts/isolation-check.js';
import { stateAccessKey } from '../../core/identity.js';
import { sealKeys } from '../../apps/config/keys.js';
import { LAB_TRUST_CLASSES } from '../../apps/lab/backends.js';
import { startPrometheus, type RunningPrometheus } from '../../apps/lab/servers/prometheus.js';
import { crypto, randomSerial, signerOf, x509 } from '../../core/x509.js';
import { getCertificate } from '../../db/queries/certificates.js';
import { getWifiKey } from '../../db/queries/wifi-keys.js';
import { open as openSealed } from '../../db/seal.js';
import { startTestSite, waitFor, type TestSite } from '../support/site.js';

/**
 * Issue 49: a hole opened on purpose in each backend the lab runs, as a site's own admin might
 * leave one, is reported by the isolation check as exactly that crossing (backend, credential
 * kind, what it reached), and the alert `ProvisioningIsolationCrossed` fires for that backend in
 * the real Prometheus; closed again, the check passes. The holes are in the real PowerDNS,
 * Mosquitto and Caddy and in the MinIO, Grafana and UniFi simulators, never in the service's own code.
 *
 * The site's `camera` class puts its Wi-Fi keys on lab-dev, network tenant-dev (VLAN 41), and
 * `sensor` on lab-devices, tenant-devices (VLAN 40): the canaries' keys then stand on two networks
 * (core/canaries.ts, canaryWifiClasses), so a key mapped onto the other's network can be seen.
 */
const CLASSES = { ...LAB_TRUST_CLASSES, camera: { ...LAB_TRUST_CLASSES.camera, ssid: 'lab-dev', vlan: 'tenant-dev' } };
let site: TestSite;
let admin: DynsecControl;
let prom: RunningPrometheus;
beforeAll(async () => {
  site = await startTestSite({ env: { WORKER_METRICS_ADDRESS: '127.0.0.1:0', SITE_TRUST_CLASSES: JSON.stringify(CLASSES) } });
  prom = await startPrometheus({ targets: { worker: [new URL(site.workerMetricsUrl!).host] }, scrapeIntervalSeconds: 1 });
  // Prometheus holds a sample of the zeroed crossing counters before any check, so increase() sees the first crossing.
  await waitFor(async () => (await prom.query('provisioning_isolation_checks_total{result="crossed"}')).length > 0, 30_000);
  const broker = site.backends.mosquitto!;
  admin = createDynsecControl({ url: broker.url, adminUser: broker.adminUser, adminPassword: broker.adminPassword, timeoutMs: 3000 });
  // The first check makes the canaries and passes (test/e2e/isolation-check.test.ts asserts it in full).
  expect((await check()).passed).toBe(true);
}, 600_000);
afterAll(async () => {
  await admin?.close();
  await prom?.stop();
  await site?.stop();
});

async function check(): Promise<IsolationCheckResult> {
  const res = await site.call('POST', '/v1/isolation-checks');
  expect(res.status, res.text).toBe(200);
  return res.body as IsolationCheckResult;
}

/** The check's crossings with the hole open, and whether it passed once the hole is closed. */
async function withHole(
  open: () => Promise<void>,
  close: () => Promise<void>,
  whileOpen: () => Promise<void> = async () => {},
): Promise<{ opened: IsolationCheckResult; closed: IsolationCheckResult }> {
  await open();
  let opened: IsolationCheckResult;
  try {
    opened = await check();
    await whileOpen();
  } finally {
    await close();
  }
  return { opened, closed: await check() };
}

const crossed = (r: IsolationCheckResult) => r.probes.filter((p) => p.result === 'crossed').map((p) => `${p.backend} ${p.credential_of}->${p.object_of}`);

/**
 * The backends `ProvisioningIsolationCrossed` fires for in the real Prometheus (one scrape and rule
 * round a second). An alert stays firing for two hours after its crossing, so each case adds its
 * backend to those of the cases before it: the set is waited for, then must be exactly that.
 */
const firingSoFar = new Set<string>();
async function alertFires(backend: string): Promise<void> {
  firingSoFar.add(backend);
  const want = [...firingSoFar].sort();
  const firing = async () => (await prom.query('ALERTS{alertname="ProvisioningIsolationCrossed",alertstate="firing"}')).map((v) => v.metric.backend!).sort();
  await waitFor(async () => (await firing()).length >= want.length, 30_000);
  expect(await firing()).toEqual(want);
}

describe('a hole opened on purpose', () => {
  it("PowerDNS: canaryb's zone also takes canarya's TSIG key (an open update ACL)", async () => {
    const pdns = site.backends.pdns;
    const meta = `${pdns.apiUrl}/servers/localhost/zones/canaryb.lab.example./metadata/TSIG-ALLOW-DNSUPDATE`;
    const put = (keys: string[]) =>
      fetch(meta, { method: 'PUT', headers: { 'X-API-Key': pdns.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ metadata: keys }) }).then(
        (r) => expect(r.status).toBe(200),
      );
    const { opened, closed } = await withHole(
      () => put(['tenant-canaryb', 'tenant-canarya']),
      () => put(['tenant-canaryb']),
    );
    expect(crossed(opened)).toEqual(['dns canarya->canaryb']);
    expect(opened.passed).toBe(false);
    expect(opened.crossings).toEqual([
      "dns: canary canarya's TSIG key reached canary canaryb's objects (update of published name probe.canaryb.lab.example (NOERROR))",
    ]);
    expect(closed.passed).toBe(true);
    // The alert fires in the real Prometheus, for that backend only.
    await alertFires('dns');
  });

  it("Mosquitto: a role allowing every topic bound to canarya's client ahead of its own", async () => {
    const run = (commands: Parameters<DynsecControl['run']>[0]) =>
      admin.run(commands).then((r) => expect(r.map((x) => x.error)).toEqual(r.map(() => undefined)));
    const { opened, closed } = await withHole(
      () =>
        run([
          { command: 'createRole', rolename: 'site-ops' },
          { command: 'addRoleACL', rolename: 'site-ops', acltype: 'publishClientSend', topic: '#', allow: true, priority: 10 },
          { command: 'addRoleACL', rolename: 'site-ops', acltype: 'subscribePattern', topic: '#', allow: true, priority: 10 },
          // Client roles are checked by their binding's priority; the account's own role is bound at the default, -1.
          { command: 'addClientRole', username: 'canarya-probe', rolename: 'site-ops', priority: 10 },
        ]),
      () =>
        run([
          { command: 'removeClientRole', username: 'canarya-probe', rolename: 'site-ops' },
          { command: 'deleteRole', rolename: 'site-ops' },
        ]),
    );
    expect(crossed(opened)).toEqual(['broker canarya->canaryb']);
    expect(opened.crossings).toEqual([
      "broker: canary canarya's broker account reached canary canaryb's objects (publish to canaryb/probe/isolation, subscribe to canaryb/probe/#)",
    ]);
    expect(closed.passed).toBe(true);
    await alertFires('broker');
  });

  it("Mosquitto: the default ACL access allowing everything is no crossing, since every account's role ends in a deny of #", async () => {
    const defaults = (allow: boolean) =>
      admin
        .run([
          {
            command: 'setDefaultACLAccess',
            acls: [
              { acltype: 'publishClientSend', allow },
              { acltype: 'subscribe', allow },
            ],
          },
        ])
        .then((r) => expect(r[0]?.error).toBeUndefined());
    const { opened, closed } = await withHole(
      () => defaults(true),
      () => defaults(false),
    );
    // The probes ran and were refused: the check's answer is measured, not assumed.
    expect(opened.probes.filter((p) => p.backend === 'broker').map((p) => p.result)).toEqual(['works', 'works', 'isolated', 'isolated']);
    expect(closed.passed).toBe(true);
    // No crossing, so no backend more among the firing alerts.
    await alertFires('broker');
  });

  it("MinIO: canarya's state-store user is also mapped to the canned readwrite policy", async () => {
    const user = site.backends.minio.state.users.get(stateAccessKey('canarya'))!;
    const before = [...user.policies];
    const { opened, closed } = await withHole(
      async () => {
        user.policies = [...before, 'readwrite'];
      },
      async () => {
        user.policies = before;
      },
      async () => {
        // tenantctl says so too, and exits 5 for a script to act on.
        const env = { PATH: process.env.PATH ?? '', TENANT_API_URL: site.url, TENANT_API_TOKEN: site.operatorToken };
        const run = await promisify(execFile)(process.execPath, ['bin/tenantctl.mjs', 'isolation-check', 'latest', '--output', 'json'], { env }).then(
          () => ({ code: 0, stderr: '' }),
          (err: { code: number; stderr: string }) => err,
        );
        expect(run.code).toBe(5);
        expect(run.stderr).toContain("isolation crossed:\n  state: canary canarya's state-store key reached canary canaryb's objects");
      },
    );
    expect(crossed(opened)).toEqual(['state canarya->canaryb']);
    expect(opened.crossings).toEqual([
      "state: canary canarya's state-store key reached canary canaryb's objects (write of canaryb/isolation-probe, read of canaryb/isolation-probe, list of canaryb/)",
    ]);
    // What the crossing wrote was deleted with the key that wrote it.
    expect([...(site.backends.minio.state.buckets.get(site.config.site!.state.bucket)?.keys() ?? [])].filter((k) => k.includes('isolation-probe'))).toEqual([]);
    expect(closed.passed).toBe(true);
    await alertFires('state');
  });

  it('Caddy: a route on the log gateway that proxies /select/* without the token match', async () => {
    const gw = site.backends.logStore!;
    const routes = `${gw.caddy.adminUrl}/config/apps/http/servers/${gw.server}/routes`;
    const { opened, closed } = await withHole(
      async () => {
        // Ahead of the tenants' routes, as a site's own hand-written route would be.
        const res = await fetch(`${routes}/0`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ match: [{ path: ['/select/*'] }], handle: [{ handler: 'reverse_proxy', upstreams: [{ dial: gw.upstream }] }] }),
        });
        expect(res.status, await res.text()).toBe(200);
      },
      async () => {
        expect((await fetch(`${routes}/0`, { method: 'DELETE' })).status).toBe(200);
      },
    );
    expect(crossed(opened)).toEqual(['log-store canarya->canaryb', 'log-store canaryb->canarya']);
    expect(opened.crossings[0]).toMatch(/^log-store: canary canarya's log tokens reached canary canaryb's objects \(read of account \d+'s stream \(200\)\)$/);
    expect(closed.passed).toBe(true);
    await alertFires('log-store');
  });

  it("Grafana: canarya's dashboard login also a Viewer of canaryb's organization", async () => {
    const grafana = site.backends.grafana!.state;
    const user = grafana.userByLoginOrEmail('tenant-canarya')!;
    const orgB = (await site.call('GET', '/v1/tenants?canaries=true')).body.tenants.find((t: { name: string }) => t.name === 'canaryb').dashboard
      .org_id as number;
    const { opened, closed } = await withHole(
      async () => grafana.setRole(orgB, user.id, 'Viewer'),
      async () => {
        grafana.members.get(orgB)!.delete(user.id);
      },
    );
    expect(crossed(opened)).toEqual(['dashboards canarya->canaryb']);
    expect(opened.crossings).toEqual([
      `dashboards: canary canarya's dashboard login reached canary canaryb's objects (sign-in to organization ${orgB} as Viewer)`,
    ]);
    expect(closed.passed).toBe(true);
    await alertFires('dashboards');
  });

  it("UniFi: canarya's Wi-Fi key also on canaryb's WLAN, mapped to canaryb's network (VLAN 40)", async () => {
    const unifi = site.backends.unifi!;
    const api = `${unifi.server.url}/proxy/network/api/s/default/rest`;
    const controller = (path: string, init: RequestInit = {}) =>
      fetch(`${api}/${path}`, { ...init, headers: { 'x-api-key': unifi.state.apiKey, 'content-type': 'application/json' } }).then(async (r) => {
        expect(r.status, await r.clone().text()).toBe(200);
        return ((await r.json()) as { data: any[] }).data;
      });
    // The admin's view, as the controller's own API gives it: canaryb's WLAN and network.
    const wlan = (await controller('wlanconf')).find((w) => w.name === 'lab-devices');
    const networkB = (await controller('networkconf')).find((n) => n.name === 'tenant-devices');
    const pskA = openSealed(sealKeys(site.config.site!), (await getWifiKey(site.registry.db, 'canarya', 'probe'))!.psk)!;
    const before = wlan.private_preshared_keys as { password: string; networkconf_id: string }[];
    const put = (keys: typeof before) => controller(`wlanconf/${wlan._id}`, { method: 'PUT', body: JSON.stringify({ private_preshared_keys: keys }) });
    // Before: canarya's key is refused on both of canaryb's, for what they are.
    expect((await check()).probes.find((p) => p.backend === 'wifi' && p.credential_of === 'canarya' && p.object_of === 'canaryb')!.detail).toBe(
      "key on canary canaryb's network tenant-devices: refused; key on canary canaryb's WLAN lab-devices: refused",
    );
    const { opened, closed } = await withHole(
      async () => {
        await put([...before, { password: pskA, networkconf_id: networkB._id }]);
      },
      async () => {
        await put(before);
      },
    );
    expect(crossed(opened)).toEqual(['wifi canarya->canaryb']);
    expect(opened.crossings).toEqual([
      "wifi: canary canarya's Wi-Fi key reached canary canaryb's objects (key on canary canaryb's network tenant-devices (VLAN 40) through lab-devices, key on canary canaryb's WLAN lab-devices onto tenant-devices)",
    ]);
    // Never the key itself, anywhere in the answer.
    expect(JSON.stringify(opened)).not.toContain(pskA);
    expect(closed.passed).toBe(true);
    await alertFires('wifi');
  });

  it("UniFi: canarya's own entry mapped by hand onto canaryb's network (a controller VLAN mapping)", async () => {
    const unifi = site.backends.unifi!;
    const wlan = unifi.wlan('lab-dev')!;
    const pskA = openSealed(sealKeys(site.config.site!), (await getWifiKey(site.registry.db, 'canarya', 'probe'))!.psk)!;
    const entry = wlan.private_preshared_keys.find((e) => e.password === pskA)!;
    const own = entry.networkconf_id;
    const api = `${unifi.server.url}/proxy/network/api/s/default/rest/wlanconf/${wlan._id}`;
    // Through the controller's API, as an admin's edit of the entry's network in its UI sends it.
    const mapTo = async (networkId: string) => {
      const keys = wlan.private_preshared_keys.map((e) => (e.password === pskA ? { ...e, networkconf_id: networkId } : e));
      const res = await fetch(api, {
        method: 'PUT',
        headers: { 'x-api-key': unifi.state.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ private_preshared_keys: keys }),
      });
      expect(res.status).toBe(200);
    };
    const { opened, closed } = await withHole(
      () => mapTo(unifi.network('tenant-devices')!._id),
      () => mapTo(own),
    );
    expect(crossed(opened)).toEqual(['wifi canarya->canaryb']);
    expect(opened.crossings).toEqual([
      "wifi: canary canarya's Wi-Fi key reached canary canaryb's objects (key on canary canaryb's network tenant-devices (VLAN 40) through lab-dev)",
    ]);
    // Its own network no longer takes it: that probe is broken, not passed.
    expect(opened.probes.filter((p) => p.backend === 'wifi').map((p) => p.result)).toEqual(['broken', 'works', 'crossed', 'isolated']);
    expect(JSON.stringify(opened)).not.toContain(pskA);
    expect(closed.passed).toBe(true);
    await alertFires('wifi');
  });

  it("Certificates: one signed by hand with the site's CA key, naming canaryb's published name too, served as canarya's", async () => {
    // No site setting widens a certificate's names: the hole is the issuer itself (the CA key used
    // outside the service, a certificate written into the registry by hand), which is what this probe guards.
    const ca = site.config.site!.ca!;
    const row = (await getCertificate(site.registry.db, 'canarya', 'probe'))!;
    const current = new x509.X509Certificate(row.certificatePem);
    const forged = await x509.X509CertificateGenerator.create(
      {
        serialNumber: randomSerial(),
        issuer: new x509.X509Certificate(ca.certPem).subjectName,
        subject: 'CN=probe.canarya.lab.example',
        notBefore: current.notBefore,
        notAfter: current.notAfter,
        publicKey: current.publicKey.rawData,
        ...signerOf(createPrivateKey(ca.keyPem)),
        extensions: [
          new x509.SubjectAlternativeNameExtension([
            { type: 'dns', value: 'probe.canarya.lab.example' },
            { type: 'dns', value: 'probe.canaryb.lab.example' },
          ]),
        ],
      },
      crypto,
    );
    const serve = async (pem: string) => {
      await site.registry.db.$client.unsafe('update certificates set certificate_pem = $1 where tenant = $2 and name = $3', [pem, 'canarya', 'probe']);
    };
    const { opened, closed } = await withHole(
      () => serve(forged.toString('pem')),
      () => serve(row.certificatePem),
    );
    expect(crossed(opened)).toEqual(['certificates canarya->canaryb']);
    expect(opened.crossings).toEqual(["certificates: canary canarya's certificate reached canary canaryb's objects (valid for probe.canaryb.lab.example)"]);
    expect(closed.passed).toBe(true);
    await alertFires('certificates');
  });
});
