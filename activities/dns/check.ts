/**
 * `--check-backends` for PowerDNS Authoritative: its running settings (`GET servers/localhost/config`,
 * https://doc.powerdns.com/authoritative/http-api/config.html) against what the service depends on,
 * each failure naming the setting and its fix. Nothing is written: the settings tenants depend on
 * (RFC 2136 updates, zone transfers, NOTIFY) are server settings, not objects a write could prove.
 */
import { BlockList, isIPv6 } from 'node:net';
import { z } from 'zod';
import { BackendError } from '../../core/backend-outcome.js';
import type { BackendHttp } from '../../backends/http/client.js';
import { normalizeTarget } from '../../backends/recursor/targets.js';
import { hostOf } from './settings.js';

const PRODUCT = 'powerdns';

/** The API's config list: every setting by name, values as pdns.conf spells them. */
const configList = z.array(z.object({ name: z.string(), value: z.string() }).passthrough());

export interface PowerDnsSiteSettings {
  secondaries: string[];
  catalog?: string;
}

/** What answered, or a BackendError listing every setting that is wrong, with its fix. */
export async function checkPowerDns(api: BackendHttp, site: PowerDnsSiteSettings): Promise<string> {
  const server = (await api.call({ path: 'servers/localhost' })).json<{ version?: string; daemon_type?: string }>();
  // Both PowerDNS servers answer this API: a Recursor's has no zones or TSIG keys to write (its 404 on
  // the first tenant's key would be the operator's only clue).
  if (server.daemon_type !== undefined && server.daemon_type !== 'authoritative') {
    throw new BackendError(
      PRODUCT,
      `SITE_PDNS_URL answers as PowerDNS ${server.daemon_type === 'recursor' ? 'Recursor' : server.daemon_type} (daemon_type ${server.daemon_type}): point it at PowerDNS Authoritative's API (pdns_server's webserver), where the tenants' zones and TSIG keys are written`,
      false,
    );
  }
  const config = new Map(configList.parse((await api.call({ path: 'servers/localhost/config' })).json()).map((c) => [c.name, c.value.trim()]));
  const problems = updateProblems(config);
  let secondaries = '';
  if (site.secondaries.length > 0 && site.catalog) {
    if (before47(server.version))
      problems.push(`catalog zones came with PowerDNS 4.7; this one is ${server.version}: upgrade it, or leave SITE_DNS_SECONDARIES unset`);
    problems.push(...transferProblems(config, site.secondaries));
    const catalog = await catalogState(api, site.catalog);
    if (catalog.problem) problems.push(catalog.problem);
    secondaries = `; primary for ${site.secondaries.length} secondaries through catalog zone ${site.catalog} (${catalog.note}); a new tenant's zones reach them within xfr-cycle-interval (${config.get('xfr-cycle-interval') ?? '60'} s)`;
  }
  if (problems.length > 0) throw new BackendError(PRODUCT, problems.join('; '), false);
  return `PowerDNS Authoritative ${server.version ?? '(version not given)'}; RFC 2136 updates on${secondaries}`;
}

/** Tenants publish their own names with TSIG-signed updates (backends/powerdns/powerdns.ts). */
function updateProblems(config: Map<string, string>): string[] {
  const problems: string[] = [];
  if (config.get('dnsupdate') !== 'yes') {
    problems.push(
      "dnsupdate is off: PowerDNS refuses the tenants' TSIG-signed RFC 2136 updates (the service's own API writes still succeed); set dnsupdate=yes in pdns.conf and restart pdns",
    );
  }
  if (config.get('lua-dnsupdate-policy-script')) {
    problems.push(
      'lua-dnsupdate-policy-script is set: it replaces the per-zone TSIG-ALLOW-DNSUPDATE and ALLOW-DNSUPDATE-FROM the service writes, so tenant keys no longer decide; leave it empty',
    );
  }
  return problems;
}

/** The secondaries the site declares must be notified and allowed to transfer (docs/decisions.md). */
function transferProblems(config: Map<string, string>, secondaries: string[]): string[] {
  const problems: string[] = [];
  // PowerDNS 4.5 renamed master to primary; both names are listed, the newer is the one set.
  if ((config.get('primary') ?? config.get('master')) !== 'yes') {
    problems.push(
      'primary is off: PowerDNS sends no NOTIFY and never updates the catalog zone, so the secondaries never learn the tenant zones; set primary=yes',
    );
  }
  if (config.get('disable-axfr') === 'yes') problems.push('disable-axfr is on: no secondary can transfer a zone; set disable-axfr=no');
  const axfr = config.get('allow-axfr-ips') ?? '';
  const notified = new Set(entries(config.get('also-notify') ?? '').flatMap(target));
  secondaries.forEach((s, i) => {
    const which = `secondary ${i + 1} of SITE_DNS_SECONDARIES`;
    if (!admits(axfr, hostOf(s))) problems.push(`allow-axfr-ips does not admit ${which}: add its address to allow-axfr-ips`);
    if (!notified.has(s)) problems.push(`also-notify does not name ${which}: add it (address and port) to also-notify`);
  });
  return problems;
}

async function catalogState(api: BackendHttp, catalog: string): Promise<{ note: string; problem?: string }> {
  const res = await api.call({ path: `servers/localhost/zones/${encodeURIComponent(catalog)}`, query: { rrsets: 'false' }, accept: [404] });
  if (res.status === 404) return { note: 'created with the next tenant' };
  const kind = res.json<{ kind?: string }>().kind ?? '';
  if (kind.toLowerCase() === 'producer') return { note: 'a producer' };
  return {
    note: `a ${kind} zone`,
    problem: `zone ${catalog} (SITE_DNS_CATALOG) is a ${kind} zone, not a producer catalog: name another zone in SITE_DNS_CATALOG, or make it one (pdnsutil set-kind ${catalog} producer)`,
  };
}

/** pdns.conf lists separate entries by commas or spaces. */
function entries(value: string): string[] {
  return value.split(/[\s,]+/).filter(Boolean);
}

function target(entry: string): string[] {
  try {
    return [normalizeTarget(entry)];
  } catch {
    return [];
  }
}

/** Whether an ACL such as allow-axfr-ips admits the address: an entry matches it, and no negated one (`!a.b.c.d/n`). */
export function admits(acl: string, address: string): boolean {
  const type = isIPv6(address) ? 'ipv6' : 'ipv4';
  const allowed = new BlockList();
  const denied = new BlockList();
  for (const entry of entries(acl)) {
    const list = entry.startsWith('!') ? denied : allowed;
    const [net = '', bits] = entry.replace(/^!/, '').split('/');
    const netType = isIPv6(net) ? 'ipv6' : 'ipv4';
    try {
      if (bits === undefined) list.addAddress(net, netType);
      else list.addSubnet(net, Number(bits), netType);
    } catch {
      // Not an address: PowerDNS itself would have refused it at start.
    }
  }
  return allowed.check(address, type) && !denied.check(address, type);
}

/** A version PowerDNS reports (`4.7.3`, `4.9.0-beta1`) older than 4.7; an unreadable one is given the benefit of the doubt. */
export function before47(version: string | undefined): boolean {
  const m = /^(\d+)\.(\d+)/.exec(version ?? '');
  return !!m && (Number(m[1]) < 4 || (Number(m[1]) === 4 && Number(m[2]) < 7));
}
