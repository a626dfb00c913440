import { dhcpSettings } from './settings.js';
import type { DeviceAddressAdapter } from '../../backends/kea/address-adapter.js';
import type { BackendArea } from '../backend-area.js';
import { createKeaAdapter } from '../../backends/kea/kea.js';
import { onEveryServer } from '../../backends/kea/kea-servers.js';
import { keaProbes } from './check.js';

/** Kea DHCPv4: the devices' fixed addresses as reservations on the device network, on each server of an HA pair. */
export const deviceAddressArea: BackendArea<'deviceAddress', DeviceAddressAdapter | undefined, typeof dhcpSettings> = {
  port: 'deviceAddress',
  settings: dhcpSettings,
  bind: (site, timeoutMs, calls) => {
    const d = site.dhcp;
    if (!d) return undefined;
    const server = (controlUrl: string) => createKeaAdapter({ ...d, controlUrl, authUser: d.user, authPassword: d.password, timeoutMs, calls });
    return onEveryServer([d.controlUrl, ...d.partnerUrls].map(server));
  },
  probes: (site, timeoutMs) => (site.dhcp ? keaProbes(site, site.dhcp, timeoutMs) : []),
};
