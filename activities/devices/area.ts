import { dhcpSettings } from './settings.js';
import type { DeviceAddressAdapter } from './address-adapter.js';
import { BackendError } from '../../core/backend-outcome.js';
import type { Site } from '../site.js';
import { trustClassRangeProblems } from '../../core/site-problems.js';
import { type BackendArea, jsonApi, probe } from '../backend-area.js';
import { createKeaAdapter, keaConfigWriteProblem } from './kea.js';
import { deviceAddressStep } from './address-step.js';

/** Kea DHCPv4: the devices' fixed addresses as reservations on the device network. */
export const deviceAddressArea: BackendArea<'deviceAddress', DeviceAddressAdapter | undefined, typeof dhcpSettings> = {
  port: 'deviceAddress',
  settings: dhcpSettings,
  steps: [deviceAddressStep],
  bind: (site, timeoutMs) => site.dhcp && createKeaAdapter({ ...site.dhcp, authUser: site.dhcp.user, authPassword: site.dhcp.password, timeoutMs }),
  probes: (site, timeoutMs) => (site.dhcp ? [keaProbe(site, site.dhcp, timeoutMs)] : []),
};

type KeaAnswer = { result?: number; text?: string; arguments?: { Dhcp4?: KeaDhcp4 } };
type KeaDhcp4 = { subnet4?: { id: number; subnet: string }[]; 'shared-networks'?: { subnet4?: { id: number; subnet: string }[] }[] };

function keaProbe(site: Site, d: NonNullable<Site['dhcp']>, timeoutMs: number) {
  return probe('dhcp', d.controlUrl, async () => {
    const headers: Record<string, string> = {};
    if (d.user !== undefined) headers.authorization = `Basic ${Buffer.from(`${d.user}:${d.password ?? ''}`).toString('base64')}`;
    const command = async (name: string): Promise<KeaAnswer | undefined> => {
      const json = { command: name, ...(d.control === 'agent' ? { service: ['dhcp4'] } : {}) };
      const body = (await jsonApi('kea', d.controlUrl, headers, timeoutMs, d.ca).call({ method: 'POST', path: '', json })).json<unknown>();
      return (Array.isArray(body) ? body[0] : body) as KeaAnswer | undefined;
    };
    const first = await command('version-get');
    if (first?.result !== 0) throw new BackendError('kea', `version-get -> result ${first?.result ?? '?'}: ${first?.text ?? 'no answer'}`);
    // The device network is Kea's: each trust class's range must fit its subnet, or DHCP never hands it out.
    const dhcp4 = (await command('config-get'))?.arguments?.Dhcp4;
    const subnets = [...(dhcp4?.subnet4 ?? []), ...(dhcp4?.['shared-networks'] ?? []).flatMap((n) => n.subnet4 ?? [])];
    const subnet = subnets.find((s) => s.id === d.subnetId);
    if (!subnet) throw new BackendError('kea', `subnet id ${d.subnetId} (SITE_DHCP_SUBNET_ID) is not configured`);
    const problems = trustClassRangeProblems(site.trustClasses, subnet.subnet);
    if (problems.length) throw new BackendError('kea', `SITE_TRUST_CLASSES: ${problems.join('; ')}`);
    // Every reservation ends with config-write (so a restart keeps it): the one write of this
    // check, of the running configuration to its own file, as each reservation does.
    const write = await command('config-write');
    if (write?.result !== 0) throw new BackendError('kea', keaConfigWriteProblem(write?.text ?? 'no answer'), false);
    return `Kea DHCPv4 ${first.text ?? ''}; device network ${subnet.subnet} holds every trust class's range; its configuration file is writable`.trim();
  });
}
