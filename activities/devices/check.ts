import { BackendError } from '../../core/backend-outcome.js';
import type { Site } from '../site.js';
import { trustClassRangeProblems } from '../../core/site-problems.js';
import { jsonApi, probe, type Probe } from '../backend-area.js';
import { keaConfigWriteProblem } from '../../backends/kea/kea.js';

/**
 * `--check-backends` for Kea DHCPv4, one line per server the service writes (SITE_DHCP_URL and
 * each of SITE_DHCP_PARTNER_URLS): the subnet and every trust class's range in it; every server of
 * a High Availability pair listed (HA shares leases, not the reservations: kea-servers.ts); how a
 * write is compared with what someone else may have set meanwhile (kea-compare.ts); and the right
 * to save the configuration, shown by `config-write` of the running configuration to its own file
 * (what every reservation ends with), the one write of this check.
 */
type KeaAnswer = { result?: number; text?: string; arguments?: { Dhcp4?: KeaDhcp4; hash?: string } };
type KeaSubnet = { id: number; subnet: string };
type HaPeer = { name?: string; role?: string };
type KeaDhcp4 = {
  subnet4?: KeaSubnet[];
  'shared-networks'?: { subnet4?: KeaSubnet[] }[];
  'hooks-libraries'?: { library?: string; parameters?: { 'high-availability'?: { peers?: HaPeer[] }[] } }[];
};
type Dhcp = NonNullable<Site['dhcp']>;

export function keaProbes(site: Site, d: Dhcp, timeoutMs: number): Probe[] {
  return [d.controlUrl, ...d.partnerUrls].map((url) => keaProbe(site, d, url, timeoutMs));
}

function keaProbe(site: Site, d: Dhcp, url: string, timeoutMs: number): Probe {
  return probe('dhcp', url, async () => {
    const headers: Record<string, string> = {};
    if (d.user !== undefined) headers.authorization = `Basic ${Buffer.from(`${d.user}:${d.password ?? ''}`).toString('base64')}`;
    const command = async (name: string): Promise<KeaAnswer | undefined> => {
      const json = { command: name, ...(d.control === 'agent' ? { service: ['dhcp4'] } : {}) };
      const body = (await jsonApi('kea', url, headers, timeoutMs, d.ca).call({ method: 'POST', path: '', json })).json<unknown>();
      return (Array.isArray(body) ? body[0] : body) as KeaAnswer | undefined;
    };
    const first = await command('version-get');
    if (first?.result !== 0) throw new BackendError('kea', `version-get -> result ${first?.result ?? '?'}: ${first?.text ?? 'no answer'}`);
    // The device network is Kea's: each trust class's range must fit its subnet, or DHCP never hands it out.
    const config = (await command('config-get'))?.arguments;
    const dhcp4 = config?.Dhcp4;
    const subnets = [...(dhcp4?.subnet4 ?? []), ...(dhcp4?.['shared-networks'] ?? []).flatMap((n) => n.subnet4 ?? [])];
    const subnet = subnets.find((s) => s.id === d.subnetId);
    if (!subnet) throw new BackendError('kea', `subnet id ${d.subnetId} (SITE_DHCP_SUBNET_ID) is not configured`);
    const problems = trustClassRangeProblems(site.trustClasses, subnet.subnet);
    if (problems.length) throw new BackendError('kea', `SITE_TRUST_CLASSES: ${problems.join('; ')}`);
    const ha = haProblem(dhcp4, d);
    if (ha) throw new BackendError('kea', ha, false);
    // Every reservation ends with config-write (so a restart keeps it): the one write of this
    // check, of the running configuration to its own file, as each reservation does.
    const write = await command('config-write');
    if (write?.result !== 0) throw new BackendError('kea', keaConfigWriteProblem(write?.text ?? 'no answer'), false);
    const compare = config?.hash !== undefined ? 'config-hash-get' : 'a re-read of the configuration (no config-hash-get before Kea 2.4)';
    return `Kea DHCPv4 ${first.text ?? ''}; device network ${subnet.subnet} holds every trust class's range; writes compared with others' by ${compare}; its configuration file is writable`.trim();
  });
}

/** A High Availability pair with more servers than the site lists: reservations would reach only some. */
function haProblem(dhcp4: KeaDhcp4 | undefined, d: Dhcp): string | undefined {
  const ha = (dhcp4?.['hooks-libraries'] ?? []).find((h) => /libdhcp_ha\b/.test(h.library ?? ''));
  const peers = ha?.parameters?.['high-availability']?.[0]?.peers ?? [];
  const listed = 1 + d.partnerUrls.length;
  if (!ha || peers.length <= listed) return undefined;
  const names = peers.map((p) => `${p.name ?? '?'} (${p.role ?? '?'})`).join(', ');
  return (
    `kea-dhcp4 runs the High Availability hook with ${peers.length} servers (${names}) and the site lists ${listed}: HA shares leases between them, ` +
    'not the configuration that holds the reservations, so a reservation written to one server is unknown to the others, which serve devices after a failover. ' +
    "List every other server's control URL in SITE_DHCP_PARTNER_URLS (the same user, password and subnet id)"
  );
}
