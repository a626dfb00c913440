import { dnsSettings } from './settings.js';
import type { DnsPort } from './port.js';
import { type BackendArea, jsonApi, probe } from '../backend-area.js';
import { createPowerDnsAdapter } from '../../backends/powerdns/powerdns.js';
import { checkPowerDns } from './check.js';

/** PowerDNS Authoritative: the tenants' zones, TSIG keys and published names. */
export const dnsArea: BackendArea<'dns', DnsPort, typeof dnsSettings> = {
  port: 'dns',
  settings: dnsSettings,
  bind: (site, timeoutMs, calls) => createPowerDnsAdapter({ ...site.dns, timeoutMs, calls }),
  // The server object carries the version, its config list the settings tenants depend on.
  probes: (site, timeoutMs) => [
    probe('powerdns', site.dns.apiUrl, () =>
      checkPowerDns(jsonApi('powerdns', site.dns.apiUrl, { 'X-API-Key': site.dns.apiKey }, timeoutMs, site.dns.ca), site.dns),
    ),
  ],
};
