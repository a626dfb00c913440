import { died, paramError } from './envelope.js';
import { ipv4ToInt, type Value } from './params.js';
import { randomMac, type ProxmoxSimState, type SdnSection } from './state.js';

/**
 * The SDN rules pve-network enforces when an object is written (zone/vnet plugins' update
 * hooks), and `pending_config`, which merges the running and the edited configuration into the
 * `?pending=1` view: running values on top, edited ones under `pending`, and `state` set to
 * `new`, `changed` or `deleted`.
 */

export type View = Record<string, unknown>;

export function pendingView(running: Map<string, SdnSection> | undefined, config: Map<string, SdnSection>): Map<string, View> {
  const out = new Map<string, View>();
  const get = (id: string) => {
    let v = out.get(id);
    if (!v) out.set(id, (v = {}));
    return v;
  };
  const setPending = (v: View, key: string, value: unknown) => {
    v.pending = { ...(v.pending as View | undefined), [key]: value };
  };
  for (const [id, r] of running ?? []) {
    const cfg = config.get(id);
    const v = get(id);
    for (const [key, value] of Object.entries(r)) {
      v[key] = value;
      if (!cfg) v.state = 'deleted';
      else if (cfg[key] === undefined) {
        setPending(v, key, 'deleted');
        v.state = 'changed';
      } else if (String(cfg[key]) !== String(value)) v.state = 'changed';
    }
  }
  for (const [id, cfg] of config) {
    const r = running?.get(id);
    const v = get(id);
    for (const [key, value] of Object.entries(cfg)) {
      const rv = r?.[key];
      if (key === 'type' || key === 'vnet') v[key] = value;
      else if (rv === undefined || String(rv) !== String(value)) setPending(v, key, value);
      if (!r) v.state = 'new';
      else if (rv === undefined) v.state = 'changed';
    }
  }
  for (const v of out.values()) if (v.state && !v.pending) v.pending = {};
  return out;
}

/** Section values as the config file keeps them: booleans as 1/0. */
export function sectionValues(params: Record<string, Value>, skip: string[]): SdnSection {
  const out: SdnSection = {};
  for (const [k, v] of Object.entries(params)) {
    if (skip.includes(k)) continue;
    out[k] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
  }
  return out;
}

const ZONE_REQUIRED: Record<string, string[]> = {
  evpn: ['controller', 'vrf-vxlan'],
  vxlan: ['peers'],
  vlan: ['bridge'],
  qinq: ['bridge', 'tag'],
  simple: [],
  faucet: [],
};

/** `check_config` for the zone's type: options its plugin requires. */
export function checkZoneRequired(zone: SdnSection): void {
  const missing = (ZONE_REQUIRED[String(zone.type)] ?? []).filter((k) => zone[k] === undefined);
  if (missing.length) throw paramError(Object.fromEntries(missing.map((k) => [k, 'property is missing and it is not optional'])));
}

/** EvpnPlugin::on_update_hook: the controller must exist and be EVPN, the VRF VNI unique. */
export function zoneUpdateHook(state: ProxmoxSimState, id: string): void {
  const zone = state.sdn.config.zones.get(id);
  if (!zone || zone.type !== 'evpn') return;
  const ctl = String(zone.controller);
  const controller = state.sdn.controllers.get(ctl);
  if (!controller) throw died(`controller ${ctl} don't exist`);
  if (controller.type !== 'evpn') throw died(`${ctl} is not a evpn controller type`);
  for (const [other, z] of state.sdn.config.zones) {
    if (other !== id && z['vrf-vxlan'] !== undefined && String(z['vrf-vxlan']) === String(zone['vrf-vxlan'])) {
      throw died(`vrf-vxlan ${zone['vrf-vxlan']} is already declared in ${other}`);
    }
  }
  zone.mac ??= randomMac();
}

/** The zone plugins' vnet_update_hook: VXLAN ids unique and present in VXLAN/EVPN zones. */
export function vnetUpdateHook(state: ProxmoxSimState, id: string): void {
  const cfg = state.sdn.config;
  const vnet = cfg.vnets.get(id)!;
  const zoneId = String(vnet.zone);
  const zone = cfg.zones.get(zoneId);
  if (!zone) throw died(`zone '${zoneId}' does not exist`);
  const tag = vnet.tag;
  if (zone.type === 'simple' && tag !== undefined) throw paramError({ tag: 'vlan tag is not allowed on simple zone' });
  if (zone.type !== 'evpn' && zone.type !== 'vxlan') return;
  if (tag === undefined) throw paramError({ tag: 'missing vxlan tag' });
  if (Number(tag) > 16777216) throw paramError({ tag: 'vxlan tag max value is 16777216' });
  if (vnet.vlanaware) throw paramError({ 'vlan-aware': `vlan-aware option can't be enabled with ${zone.type}` });
  for (const [other, v] of cfg.vnets) {
    if (other === id || v.tag === undefined) continue;
    const otherZone = cfg.zones.get(String(v.zone));
    if (otherZone?.type !== 'evpn' && otherZone?.type !== 'vxlan') continue;
    if (String(v.tag) === String(tag)) throw paramError({ tag: `vxlan tag ${tag} already exist in vnet ${other} in zone ${v.zone} ` });
  }
}

/** Subnet ids are `<zone>-<network>-<mask>`; these are the fields sdn_subnets_config adds. */
export function subnetDerived(id: string): { cidr: string; zone: string; network: string; mask: string } {
  const [zone = '', network = '', mask = ''] = id.split('-');
  return { cidr: `${network}/${mask}`, zone, network, mask };
}

export function subnetIdFormat(v: string): string | undefined {
  const cidr = v.includes('/')
    ? v
    : (() => {
        const [, ip, mask] = v.split('-');
        return `${ip}/${mask}`;
      })();
  const [ip, mask] = cidr.split('/');
  return ip && ipv4ToInt(ip) !== undefined && mask && /^\d+$/.test(mask) && Number(mask) <= 32 ? undefined : 'value does not look like a valid CIDR network';
}

export function inSubnet(ip: string, cidr: string): boolean {
  const [net = '', maskStr = ''] = cidr.split('/');
  const a = ipv4ToInt(ip);
  const n = ipv4ToInt(net);
  const mask = Number(maskStr);
  if (a === undefined || n === undefined) return false;
  const size = 2 ** (32 - mask);
  return Math.floor(a / size) === Math.floor(n / size);
}

/** SubnetPlugin::on_update_hook: the gateway must sit inside the subnet (except /32). */
export function subnetUpdateHook(state: ProxmoxSimState, id: string): void {
  const s = state.sdn.config.subnets.get(id)!;
  const { cidr, mask } = subnetDerived(id);
  const vnet = state.sdn.config.vnets.get(String(s.vnet));
  if (!vnet) throw paramError({ vnet: `${s.vnet} don't exist` });
  if (vnet.vlanaware) throw paramError({ vnet: "you can't add a subnet on a vlanaware vnet" });
  if (s.gateway !== undefined && mask !== '32' && !inSubnet(String(s.gateway), cidr)) {
    throw paramError({ gateway: `${s.gateway} is not in subnet ${cidr}` });
  }
}
