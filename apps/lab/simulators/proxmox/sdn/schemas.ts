import { cidrFormat, ipFormat, pveIdFormat, type Schema } from '../params.js';
import { subnetIdFormat } from '../sdn-model.js';

/** The parameters of pve-network's SDN methods (API2/Network/SDN/*.pm), as the simulator checks them. */
export const VIEW: Schema = { running: { type: 'boolean', optional: true }, pending: { type: 'boolean', optional: true } };

export const opt = { optional: true } as const;
export const ZONE_OPTIONS: Schema = {
  controller: { type: 'string', ...opt },
  'vrf-vxlan': { type: 'integer', min: 1, max: 16777215, ...opt },
  mtu: { type: 'integer', ...opt },
  nodes: { type: 'string', ...opt },
  exitnodes: { type: 'string', ...opt },
  'exitnodes-primary': { type: 'string', ...opt },
  'exitnodes-local-routing': { type: 'boolean', ...opt },
  'advertise-subnets': { type: 'boolean', ...opt },
  'disable-arp-nd-suppression': { type: 'boolean', ...opt },
  'bridge-disable-mac-learning': { type: 'boolean', ...opt },
  'rt-import': { type: 'string', ...opt },
  'vxlan-port': { type: 'integer', min: 1, max: 65536, ...opt },
  mac: { type: 'string', ...opt },
  ipam: { type: 'string', ...opt },
  dns: { type: 'string', ...opt },
  reversedns: { type: 'string', ...opt },
  dnszone: { type: 'string', ...opt },
  dhcp: { type: 'string', ...opt },
  bridge: { type: 'string', ...opt },
  tag: { type: 'integer', ...opt },
  peers: { type: 'string', ...opt },
  'lock-token': { type: 'string', ...opt },
};
export const ZONE_ID = { type: 'string', format: pveIdFormat('zone') } as const;
export const ZONE_CREATE: Schema = { zone: ZONE_ID, type: { type: 'string', enum: ['evpn', 'faucet', 'qinq', 'simple', 'vlan', 'vxlan'] }, ...ZONE_OPTIONS };
export const ZONE_UPDATE: Schema = { zone: ZONE_ID, delete: { type: 'string', ...opt }, digest: { type: 'string', ...opt }, ...ZONE_OPTIONS };

export const VNET_ID = { type: 'string', format: pveIdFormat('vnet') } as const;
export const VNET_OPTIONS: Schema = {
  tag: { type: 'integer', min: 1, max: 16777215, ...opt },
  alias: { type: 'string', ...opt },
  vlanaware: { type: 'boolean', ...opt },
  'isolate-ports': { type: 'boolean', ...opt },
  'lock-token': { type: 'string', ...opt },
};
export const VNET_CREATE: Schema = { vnet: VNET_ID, zone: { type: 'string' }, type: { type: 'string', enum: ['vnet'], ...opt }, ...VNET_OPTIONS };
export const VNET_UPDATE: Schema = {
  vnet: VNET_ID,
  zone: { type: 'string', ...opt },
  delete: { type: 'string', ...opt },
  digest: { type: 'string', ...opt },
  ...VNET_OPTIONS,
};

export const SUBNET_OPTIONS: Schema = {
  gateway: { type: 'string', format: ipFormat, ...opt },
  snat: { type: 'boolean', ...opt },
  dnszoneprefix: { type: 'string', ...opt },
  'dhcp-range': { type: 'string', ...opt },
  'dhcp-dns-server': { type: 'string', format: ipFormat, ...opt },
  'lock-token': { type: 'string', ...opt },
};
export const SUBNET_CREATE: Schema = {
  vnet: VNET_ID,
  subnet: { type: 'string', format: cidrFormat },
  type: { type: 'string', enum: ['subnet'] },
  ...SUBNET_OPTIONS,
};
export const SUBNET_UPDATE: Schema = {
  vnet: VNET_ID,
  subnet: { type: 'string', format: subnetIdFormat },
  delete: { type: 'string', ...opt },
  digest: { type: 'string', ...opt },
  ...SUBNET_OPTIONS,
};
