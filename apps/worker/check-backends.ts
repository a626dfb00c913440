import type { Site } from '../../core/site.js';
import { trustClassRangeProblems } from '../../core/site-problems.js';
import { BackendError } from '../../core/backend-outcome.js';
import { logDataSourceType } from '../../activities/dashboards/datasources.js';
import { keaConfigWriteProblem } from '../../activities/devices/kea.js';
import { BackendHttp } from '../../activities/http.js';
import { PveApi } from '../../activities/network/pve-api.js';
import { signRequest } from '../../activities/state/sigv4.js';
import { createDynsecControl } from '../../activities/broker/dynsec-control.js';
import { unifiApiBase, unifiSession } from '../../activities/wifi/unifi-session.js';

/**
 * `worker --check-backends`: before the first tenant, call each configured backend's read-only
 * endpoint with the site's URL, credential and CA bundle, exactly as the adapters will, and say
 * what answers. Nothing is written, but for Kea's `config-write` of its running configuration to
 * its own file (what every reservation ends with), which is how a file Kea cannot write shows.
 */
export interface BackendCheck {
  backend: string;
  /** The URL checked (no credential is ever part of it). */
  url: string;
  ok: boolean;
  /** What answered (a version, a count), or why it did not. */
  detail: string;
}

interface Probe {
  backend: string;
  url: string;
  run(): Promise<string>;
}

const probe = (backend: string, url: string, run: () => Promise<string>): Probe => ({ backend, url, run });

function probes(site: Site, timeoutMs: number): Probe[] {
  const list: Probe[] = [];
  const jsonApi = (product: string, url: string, headers: Record<string, string>, ca: string | undefined, pin?: string) => new BackendHttp(product, url, { accept: 'application/json', ...headers }, timeoutMs, { ca, pin });

  // PowerDNS Authoritative and Recursor share their API: the server object carries the version.
  for (const [backend, name, api] of [['powerdns', 'PowerDNS Authoritative', site.dns], ['recursor', 'PowerDNS Recursor', site.resolver]] as const) {
    list.push(probe(backend, api.apiUrl, async () => {
      const s = (await jsonApi(backend, api.apiUrl, { 'X-API-Key': api.apiKey }, api.ca).call({ path: 'servers/localhost' })).json<{ version?: string }>();
      return `${name} ${s.version ?? '(version not given)'}`;
    }));
  }
  list.push(probe('minio', site.state.adminUrl, async () => {
    // GetBucketLocation on the state bucket: signed as the adapter signs (its region), read-only.
    const base = site.state.adminUrl.endsWith('/') ? site.state.adminUrl : `${site.state.adminUrl}/`;
    const url = new URL(`${encodeURIComponent(site.state.bucket)}?location=`, base);
    const headers = signRequest({ method: 'GET', url }, { accessKey: site.state.accessKey, secretKey: site.state.secretKey }, { region: site.state.region });
    const res = await new BackendHttp('minio', site.state.adminUrl, {}, timeoutMs, { ca: site.state.ca }).call({ path: url.pathname, query: { location: '' }, headers });
    const region = /<LocationConstraint[^>]*>([^<]*)</.exec(res.text)?.[1] || 'us-east-1';
    return `bucket ${site.state.bucket} in region ${region}`;
  }));
  list.push(probe('proxmox', site.proxmox.apiUrl, async () => {
    const pve = new PveApi({ apiUrl: site.proxmox.apiUrl, tokenId: site.proxmox.tokenId, tokenSecret: site.proxmox.tokenSecret, taskTimeoutMs: timeoutMs, timeoutMs, ca: site.proxmox.ca });
    const v = await pve.get<{ version?: string }>('/version');
    const vms = await pve.get<unknown[]>(`/nodes/${encodeURIComponent(site.node)}/qemu`);
    return `Proxmox VE ${v.version ?? '?'}; node ${site.node} lists ${vms.length} guests`;
  }));
  if (site.logStore) {
    const ls = site.logStore;
    list.push(probe('log-store', ls.adminUrl, async () => {
      const res = await new BackendHttp('caddy', ls.adminUrl, {}, timeoutMs, { ca: ls.ca }).call({ path: `config/apps/http/servers/${encodeURIComponent(ls.server)}`, accept: [403] });
      // Caddy's admin API answers only the Host names it listens as (caddyserver/caddy admin.go, checkHost).
      if (res.status === 403 && /host not allowed/i.test(res.text)) throw new BackendError('caddy', CADDY_ORIGIN_FIX, false, 403);
      if (res.status === 403) throw new BackendError('caddy', `GET config -> 403 ${res.text.slice(0, 200)}`, false, 403);
      return `Caddy admin API answers; server ${ls.server} is configured`;
    }));
  }
  if (site.grafana) {
    const g = site.grafana;
    list.push(probe('grafana', g.url, async () => {
      const auth = `Basic ${Buffer.from(`${g.adminUser}:${g.adminPassword}`).toString('base64')}`;
      const me = (await jsonApi('grafana', g.url, { authorization: auth }, g.ca).call({ path: '/api/user' })).json<{ login?: string; isGrafanaAdmin?: boolean }>();
      if (!me.isGrafanaAdmin) throw new BackendError('grafana', `${me.login ?? 'the admin user'} is not a Grafana server admin`, false);
      // Grafana accepts a data source of a type no installed plugin provides: ask for the plugin.
      const api = jsonApi('grafana', g.url, { authorization: auth }, g.ca);
      const plugin = await api.call({ path: `/api/plugins/${logDataSourceType}/settings`, accept: [404] });
      if (plugin.status === 404) {
        const old = await api.call({ path: `/api/plugins/${PRE_013_LOG_PLUGIN}/settings`, accept: [404] });
        throw new BackendError('grafana', old.status === 404 ? GRAFANA_PLUGIN_FIX : `${GRAFANA_PLUGIN_FIX} (it has ${PRE_013_LOG_PLUGIN}, the plugin before 0.13, whose id differs)`, false, 404);
      }
      const version = plugin.json<{ info?: { version?: string } }>().info?.version ?? '?';
      return `signed in as ${me.login ?? '?'} (server admin); plugin ${logDataSourceType} ${version}`;
    }));
  }
  if (site.wifi) {
    const w = site.wifi;
    list.push(probe('wifi', w.url, async () => {
      // The adapter's own session: an API key, or the deployment's login.
      const res = await unifiSession(jsonApi('unifi', w.url, {}, w.ca, w.pin), w).call({ path: `${unifiApiBase(w)}/rest/wlanconf` });
      const wlans = res.json<{ data?: { name?: string }[] }>().data ?? [];
      // Every WLAN the site names must stand on the controller: keys for a missing one never land.
      const named: [string, string][] = [
        ...Object.entries(site.trustClasses).flatMap(([cls, c]) => (c.ssid ? [[c.ssid, `trust class ${cls}`] as [string, string]] : [])),
        ...(w.developer ? [[w.developer.ssid, 'SITE_WIFI_DEVELOPER_SSID'] as [string, string]] : []),
        ...(w.developer?.boundSsid ? [[w.developer.boundSsid, 'SITE_WIFI_DEVELOPER_BOUND_SSID'] as [string, string]] : []),
      ];
      const missing = named.filter(([ssid]) => !wlans.some((x) => x.name === ssid));
      if (missing.length) {
        const which = missing.map(([ssid, by]) => `${ssid} (${by})`).join(', ');
        throw new BackendError('unifi', `site ${w.site} has no WLAN ${which}: create it on the controller${missing.some(([, by]) => by === 'SITE_WIFI_DEVELOPER_BOUND_SSID') ? ' (the bound developer WLAN: WPA2 on the developer network, a WLAN of its own; the service turns on its MAC filter)' : ''}, or correct the setting`, false);
      }
      return `UniFi Network (${w.deployment}${w.apiKey && w.deployment !== 'self-hosted' ? ', API key' : ', login'}) answers; site ${w.site} has ${wlans.length} WLANs`;
    }));
  }
  if (site.dhcp) {
    const d = site.dhcp;
    list.push(probe('dhcp', d.controlUrl, async () => {
      const headers: Record<string, string> = {};
      if (d.user !== undefined) headers.authorization = `Basic ${Buffer.from(`${d.user}:${d.password ?? ''}`).toString('base64')}`;
      const res = await jsonApi('kea', d.controlUrl, headers, d.ca).call({ method: 'POST', path: '', json: { command: 'version-get', ...(d.control === 'agent' ? { service: ['dhcp4'] } : {}) } });
      const body = res.json<unknown>();
      const first = (Array.isArray(body) ? body[0] : body) as { result?: number; text?: string } | undefined;
      if (first?.result !== 0) throw new BackendError('kea', `version-get -> result ${first?.result ?? '?'}: ${first?.text ?? 'no answer'}`);
      // The device network is Kea's: each trust class's range must fit its subnet, or DHCP never hands it out.
      const config = (await jsonApi('kea', d.controlUrl, headers, d.ca).call({ method: 'POST', path: '', json: { command: 'config-get', ...(d.control === 'agent' ? { service: ['dhcp4'] } : {}) } })).json<unknown>();
      const dhcp4 = ((Array.isArray(config) ? config[0] : config) as { arguments?: { Dhcp4?: { subnet4?: { id: number; subnet: string }[]; 'shared-networks'?: { subnet4?: { id: number; subnet: string }[] }[] } } })?.arguments?.Dhcp4;
      const subnets = [...(dhcp4?.subnet4 ?? []), ...(dhcp4?.['shared-networks'] ?? []).flatMap((n) => n.subnet4 ?? [])];
      const subnet = subnets.find((s) => s.id === d.subnetId);
      if (!subnet) throw new BackendError('kea', `subnet id ${d.subnetId} (SITE_DHCP_SUBNET_ID) is not configured`);
      const problems = trustClassRangeProblems(site.trustClasses, subnet.subnet);
      if (problems.length) throw new BackendError('kea', `SITE_TRUST_CLASSES: ${problems.join('; ')}`);
      // Every reservation ends with config-write (so a restart keeps it): the one write of this
      // check, of the running configuration to its own file, as each reservation does.
      const written = (await jsonApi('kea', d.controlUrl, headers, d.ca).call({ method: 'POST', path: '', json: { command: 'config-write', ...(d.control === 'agent' ? { service: ['dhcp4'] } : {}) } })).json<unknown>();
      const write = (Array.isArray(written) ? written[0] : written) as { result?: number; text?: string } | undefined;
      if (write?.result !== 0) throw new BackendError('kea', keaConfigWriteProblem(write?.text ?? 'no answer'), false);
      return `Kea DHCPv4 ${first.text ?? ''}; device network ${subnet.subnet} holds every trust class's range; its configuration file is writable`.trim();
    }));
  }
  if (site.broker) {
    const b = site.broker;
    list.push(probe('broker', b.url, async () => {
      const control = createDynsecControl({ url: b.url, adminUser: b.adminUser, adminPassword: b.adminPassword, timeoutMs, ca: b.ca });
      try {
        const [r] = await control.run([{ command: 'getDefaultACLAccess' }]);
        if (r?.error) throw new BackendError('mosquitto', `getDefaultACLAccess: ${r.error}`);
        return 'Mosquitto dynamic security answers';
      } finally {
        await control.close();
      }
    }));
  }
  return list;
}

/** The pre-0.13 id of the VictoriaLogs data source plugin. */
const PRE_013_LOG_PLUGIN = 'victorialogs-datasource';
const GRAFANA_PLUGIN_FIX = `the VictoriaLogs data source plugin (${logDataSourceType}, 0.13 or later) is not installed: tenants' data sources would not work; install it (grafana cli plugins install ${logDataSourceType}, or GF_INSTALL_PLUGINS) and restart Grafana`;
const CADDY_ORIGIN_FIX =
  'Caddy refuses this Host (403 host not allowed): its admin API answers only the address it listens on; set SITE_LOG_URL to that address, or add this one to admin.origins in Caddy\'s config';

/** Runs every configured backend's check at once; never throws. */
export async function checkBackends(site: Site, opts: { timeoutMs?: number } = {}): Promise<BackendCheck[]> {
  const timeoutMs = opts.timeoutMs ?? site.backendTimeoutMs;
  return Promise.all(
    probes(site, timeoutMs).map(async (p): Promise<BackendCheck> => {
      try {
        return { backend: p.backend, url: p.url, ok: true, detail: await p.run() };
      } catch (err) {
        return { backend: p.backend, url: p.url, ok: false, detail: err instanceof BackendError ? err.detail : (err as Error).message };
      }
    }),
  );
}

/** One line per backend, for the operator's terminal. */
export function formatChecks(checks: BackendCheck[]): string {
  const width = Math.max(...checks.map((c) => c.backend.length));
  return checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.backend.padEnd(width)}  ${c.url}  ${c.detail}`).join('\n');
}
